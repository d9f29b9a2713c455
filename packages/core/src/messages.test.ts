import { describe, expect, it } from 'vitest';
import {
  UNKNOWN_AUTH_ERROR,
  ambassadorTooltip,
  authErrorMessage,
  genericOperationError,
  googleAccessRequiredMessage,
  graphqlErrorMessage,
  joinGraphqlErrors,
  messages,
  office365ConflictMessage,
  providerStaffAdminMessage,
  withServerMessages,
} from './messages.js';

// Each row: a catalogue entry and the spec's words for it (§5, §8), copied from the spec.
describe('the catalogue is the spec, word for word', () => {
  it.each([
    [messages.auth.invalidCredentials, 'Invalid email or password'],
    [messages.auth.organisationLookupFailed, 'Something went wrong logging you in, please try again.'],
    [messages.auth.noOrganisations, 'You do not have an account on this site'],
    [messages.auth.googleAccessRequired, 'You need to allow the product access to your Google account to sign in with Google.'],
    [messages.auth.resendFailed, 'Something went wrong resending the email. Please try again.'],
    [messages.auth.signUpAsAdminRefused, "You can't sign up as admin with this email address"],
    [messages.auth.districtSso, 'Please sign in using your district SSO such as Clever or Schoology'],
    [messages.office365.alreadyRegistered, 'You already have account, please use that to sign in'],
    [messages.office365.registeredWithGoogle, 'You are already registered with a Google account, please use that to sign in'],
    [messages.office365.failed, 'Something went wrong logging you in'],
    [messages.office365.accessDenied, 'You need to allow access to your account to continue.'],
    [messages.import.forbidden, 'Your account cannot perform this action'],
    [messages.import.licensesNotGranted, "The teachers couldn't be granted licenses"],
    [messages.import.failed, "Something went wrong, the teachers couldn't be imported"],
    [messages.teachers.deleteFailed, 'Error deleting teacher'],
    [messages.teachers.roleFailed, 'Error setting user role'],
    [messages.teachers.welcomeEmailFailed, 'Error sending welcome email'],
    [messages.teachers.studentAccountsNotEmailed, "Some users selected have student accounts and weren't emailed"],
    [messages.organisation.renameFailed, 'Something went wrong updating the organisation name'],
    [messages.admins.loadFailed, 'There was a problem loading admins'],
    [messages.admins.importFailed, "Something went wrong, the admins couldn't be imported"],
    [messages.admins.removeFailed, "Something went wrong, the admins couldn't be removed"],
    [messages.admins.addFailed, 'error adding admin to org'],
    [messages.lms.loadFailed, 'There was a problem getting the credentials'],
    [messages.portfolio.notEnabled, 'Portfolios are not enabled for this organisation'],
    [messages.portfolio.noExportYet, 'No export yet generated'],
    [messages.portfolio.notReady, 'Portfolio data will be ready soon'],
    [messages.libraries.fetchFailed, 'Error fetching teacher libraries'],
    [messages.libraries.notAuthorisedRequestedUser, 'Not authorised to access the requested user'],
    [messages.libraries.reassignFailed, 'Error reassigning teacher libraries'],
    [messages.libraries.notAuthorisedUser, 'Not authorised to access the user'],
    [messages.libraries.archiveFailed, 'Error archiving teacher libraries'],
    [messages.libraries.revokeMembershipsFailed, 'Error revoking teacher memberships'],
    [messages.libraries.joinFailed, 'Error joining teacher libraries'],
    [messages.libraries.joinForbidden, "You don't have permissions to visit this library."],
    [messages.libraries.bookCountFailed, 'Error fetching teacher book count'],
    [messages.libraries.visitNotAllowed, 'For security reasons, you do not have access to visit teacher libraries.'],
    [messages.analytics.customFailed, 'Error fetching custom analytics'],
    [messages.analytics.dbFailed, 'Error fetching DB analytics'],
    [messages.analytics.tileFailed, 'Loading error, please try again.'],
    [messages.analytics.noData, 'There is no data available for this view'],
    [messages.settings.loadFailed, 'Settings could not be loaded, please refresh and try again.'],
    [messages.settings.imageSearchFailed, 'failed to update image search setting, please refresh and try again'],
    [messages.browser.unsupported, "Your browser isn't supported."],
    [messages.browser.unsupportedTitle, "Your browser isn't supported"],
    [messages.validation.organisationNameEmpty, 'Organisation name cannot be empty'],
    [messages.validation.subjectRequired, 'Please include a subject'],
    [messages.validation.messageRequired, 'Please include a message'],
    [messages.organisation.licensesLoadFailed, 'Something went wrong loading the licenses'],
    [messages.organisation.noLicenses, "You don't have any licenses available"],
    [messages.teachers.notFound, 'No teachers found'],
    [messages.teachers.noTeachers, "You don't have any teachers in your organisation"],
    [messages.libraries.noLibraries, 'No libraries found'],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected);
  });
  it('has the city-government text', () => {
    expect(messages.auth.cityGovernment).toBe(
      'Your district prevents the use of email and password logins to the admin console, please use the preferred Single Sign On methods.',
    );
  });
});

describe('authErrorMessage (identity error codes)', () => {
  it.each([
    ['auth/wrong-password', undefined, 'Incorrect password.'],
    ['auth/user-not-found', undefined, "That email address doesn't match an existing account."],
    ['auth/invalid-email', undefined, 'Invalid email address.'],
    ['auth/user-disabled', undefined, 'This account has been disabled.'],
    ['auth/too-many-requests', undefined, 'You have entered an incorrect password too many times. Please try again in a few minutes.'],
    ['auth/internal-error', 'Upstream said no', 'Upstream said no'],
    ['auth/internal-error', undefined, 'There was a problem signing in, please try again.'],
    ['auth/something-new', undefined, 'There was a problem signing in, please try again.'],
    ['toString', undefined, 'There was a problem signing in, please try again.'],
    [null, undefined, 'There was a problem signing in, please try again.'],
  ])('%s → %s', (code, provider, expected) => {
    expect(authErrorMessage(code, provider)).toBe(expected);
  });
  it('exposes the unknown-code text', () => {
    expect(UNKNOWN_AUTH_ERROR).toBe('There was a problem signing in, please try again.');
  });
});

describe('office365ConflictMessage (401 with providerIds)', () => {
  it.each([
    [['google.com'], 'You are already registered with a Google account, please use that to sign in'],
    [['password'], 'You are already registered with an email account, please use that to sign in'],
    [[], 'You already have account, please use that to sign in'],
    [['saml.other'], 'You already have account, please use that to sign in'],
  ])('%j', (ids, expected) => {
    expect(office365ConflictMessage(ids)).toBe(expected);
  });
});

describe('GraphQL errors', () => {
  it('joins messages with newlines', () => {
    expect(joinGraphqlErrors([{ message: 'First' }, { message: 'Second' }])).toBe('First\nSecond');
    expect(joinGraphqlErrors(undefined)).toBe('');
  });
  it('falls back to the generic operation text', () => {
    expect(genericOperationError('renameOrganisation')).toBe('Something went wrong with the operation renameOrganisation');
    expect(graphqlErrorMessage('assignLicenses', [])).toBe('Something went wrong with the operation assignLicenses');
    expect(graphqlErrorMessage('assignLicenses', [{ message: 'Nope' }])).toBe('Nope');
  });
});

it.each([
  [[], 'Error deleting teacher'],
  [[null, '  '], 'Error deleting teacher'],
  [['Teacher owns libraries'], 'Error deleting teacher: Teacher owns libraries'],
  [['One', 'Two'], 'Error deleting teacher: One\nTwo'],
])('withServerMessages %j', (extra, expected) => {
  expect(withServerMessages(messages.teachers.deleteFailed, extra)).toBe(expected);
});

it('names the product in the staff and ambassador texts', () => {
  expect(providerStaffAdminMessage('Quire')).toBe("Quire users can't be added as admins");
  expect(ambassadorTooltip('Quire')).toBe('Quire Ambassador');
  expect(googleAccessRequiredMessage('Quire')).toBe('You need to allow Quire access to your Google account to sign in with Google.');
});
