import { describe, expect, it } from 'vitest';
import {
  UNKNOWN_AUTH_ERROR,
  adminMessages,
  ambassadorTooltip,
  analyticsMessages,
  authErrorMessage,
  authMessages,
  browserMessages,
  genericOperationError,
  googleAccessRequiredMessage,
  graphqlErrorMessage,
  importMessages,
  libraryMessages,
  lmsMessages,
  office365ConflictMessage,
  office365Messages,
  organisationMessages,
  portfolioMessages,
  providerStaffAdminMessage,
  settingsMessages,
  teacherMessages,
  validationMessages,
  withServerMessages,
} from './messages.js';

// Each row: a catalogue entry and the spec's words for it (§5, §8), copied from the spec.
describe('the catalogue is the spec, word for word', () => {
  it.each([
    [authMessages.invalidCredentials, 'Invalid email or password'],
    [authMessages.organisationLookupFailed, 'Something went wrong logging you in, please try again.'],
    [authMessages.noOrganisations, 'You do not have an account on this site'],
    [authMessages.googleAccessRequired, 'You need to allow the product access to your Google account to sign in with Google.'],
    [authMessages.resendFailed, 'Something went wrong resending the email. Please try again.'],
    [authMessages.signUpAsAdminRefused, "You can't sign up as admin with this email address"],
    [authMessages.districtSso, 'Please sign in using your district SSO such as Clever or Schoology'],
    [office365Messages.alreadyRegistered, 'You already have account, please use that to sign in'],
    [office365Messages.registeredWithGoogle, 'You are already registered with a Google account, please use that to sign in'],
    [office365Messages.failed, 'Something went wrong logging you in'],
    [office365Messages.accessDenied, 'You need to allow access to your account to continue.'],
    [importMessages.forbidden, 'Your account cannot perform this action'],
    [importMessages.licensesNotGranted, "The teachers couldn't be granted licenses"],
    [importMessages.failed, "Something went wrong, the teachers couldn't be imported"],
    [teacherMessages.deleteFailed, 'Error deleting teacher'],
    [teacherMessages.roleFailed, 'Error setting user role'],
    [teacherMessages.welcomeEmailFailed, 'Error sending welcome email'],
    [teacherMessages.studentAccountsNotEmailed, "Some users selected have student accounts and weren't emailed"],
    [organisationMessages.renameFailed, 'Something went wrong updating the organisation name'],
    [adminMessages.loadFailed, 'There was a problem loading admins'],
    [adminMessages.importFailed, "Something went wrong, the admins couldn't be imported"],
    [adminMessages.removeFailed, "Something went wrong, the admins couldn't be removed"],
    [adminMessages.addFailed, 'error adding admin to org'],
    [lmsMessages.loadFailed, 'There was a problem getting the credentials'],
    [portfolioMessages.notEnabled, 'Portfolios are not enabled for this organisation'],
    [portfolioMessages.noExportYet, 'No export yet generated'],
    [portfolioMessages.notReady, 'Portfolio data will be ready soon'],
    [libraryMessages.fetchFailed, 'Error fetching teacher libraries'],
    [libraryMessages.notAuthorisedRequestedUser, 'Not authorised to access the requested user'],
    [libraryMessages.reassignFailed, 'Error reassigning teacher libraries'],
    [libraryMessages.notAuthorisedUser, 'Not authorised to access the user'],
    [libraryMessages.archiveFailed, 'Error archiving teacher libraries'],
    [libraryMessages.revokeMembershipsFailed, 'Error revoking teacher memberships'],
    [libraryMessages.joinFailed, 'Error joining teacher libraries'],
    [libraryMessages.joinForbidden, "You don't have permissions to visit this library."],
    [libraryMessages.bookCountFailed, 'Error fetching teacher book count'],
    [libraryMessages.visitNotAllowed, 'For security reasons, you do not have access to visit teacher libraries.'],
    [analyticsMessages.customFailed, 'Error fetching custom analytics'],
    [analyticsMessages.dbFailed, 'Error fetching DB analytics'],
    [analyticsMessages.tileFailed, 'Loading error, please try again.'],
    [analyticsMessages.noData, 'There is no data available for this view'],
    [settingsMessages.loadFailed, 'Settings could not be loaded, please refresh and try again.'],
    [settingsMessages.imageSearchFailed, 'failed to update image search setting, please refresh and try again'],
    [browserMessages.unsupported, "Your browser isn't supported."],
    [browserMessages.unsupportedTitle, "Your browser isn't supported"],
    [validationMessages.organisationNameEmpty, 'Organisation name cannot be empty'],
    [validationMessages.subjectRequired, 'Please include a subject'],
    [validationMessages.messageRequired, 'Please include a message'],
    [organisationMessages.licensesLoadFailed, 'Something went wrong loading the licenses'],
    [organisationMessages.noLicenses, "You don't have any licenses available"],
    [teacherMessages.notFound, 'No teachers found'],
    [teacherMessages.noTeachers, "You don't have any teachers in your organisation"],
    [libraryMessages.noLibraries, 'No libraries found'],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected);
  });
  it('has the city-government text', () => {
    expect(authMessages.cityGovernment).toBe(
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
    expect(graphqlErrorMessage('assignLicenses', [{ message: 'First' }, { message: 'Second' }])).toBe('First\nSecond');
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
  expect(withServerMessages(teacherMessages.deleteFailed, extra)).toBe(expected);
});

it('names the product in the staff and ambassador texts', () => {
  expect(providerStaffAdminMessage('Quire')).toBe("Quire users can't be added as admins");
  expect(ambassadorTooltip('Quire')).toBe('Quire Ambassador');
  expect(googleAccessRequiredMessage('Quire')).toBe('You need to allow Quire access to your Google account to sign in with Google.');
});
