// Plain data, no zod: the console's first download reads codes without the schemas' library (docs/platform.md).
import { INPUT_LIMITS, LTI_MAX_BODY_BYTES, LTI_MAX_PARAMETERS } from './constants.js';
import { authErrorCodeMessages, authMessages, importMessages, libraryMessages, portfolioMessages, rateLimitMessages, validationMessages } from './messages.js';

interface ErrorEntry {
  /** The HTTP status the API answers with. */
  status: number;
  /** The text a person sees, unless the thrower gives a more precise one (a count, a field, a limit). */
  message: string;
}

// One wording for what one refusal means to a person, whichever check (or LTI version) made it.
const CANNOT_PERFORM = 'Your account cannot perform this action';
const LAUNCH_EXPIRED = 'This launch has expired, or the learning platform’s clock is wrong. Please launch again.';
const LAUNCH_USED = 'This launch has already been used. Please launch again from your learning platform.';

/**
 * Every error code the server answers with (`{ code, message }` in REST, `extensions.code` in GraphQL, the
 * reason logged for a refused LTI launch): its status and its message. The server throws them by code
 * (`appError('teacher_not_found')`), the console compares `ErrorCode`s, and a test checks that every code
 * thrown is here and every code here is thrown.
 */
export const errorCatalogue = {
  // The HTTP layer: bodies, routes, validation, the unexpected.
  bad_request: { status: 400, message: 'Bad request' },
  validation_error: { status: 400, message: 'Invalid request' },
  invalid_json: { status: 400, message: 'The request body is not valid JSON' },
  invalid_characters: { status: 400, message: 'The request contains characters that are not allowed' },
  body_too_large: { status: 413, message: 'The request body is too large' },
  unsupported_media_type: { status: 415, message: 'Unsupported content type' },
  not_found: { status: 404, message: 'Not found' },
  internal_error: { status: 500, message: 'Something went wrong' },
  server_busy: { status: 503, message: 'The server is busy, please try again in a moment.' },
  too_many_requests: { status: 429, message: rateLimitMessages.tooManyRequests },
  csrf_origin_refused: { status: 403, message: 'This request must come from the console' },

  // Who is asking.
  unauthorised: { status: 401, message: 'You need to sign in' },
  forbidden: { status: 403, message: CANNOT_PERFORM },
  admin_required: { status: 403, message: CANNOT_PERFORM },
  acting_user_mismatch: { status: 401, message: 'You are signed in as another user in this browser. Please reload the page.' },
  email_not_verified: { status: 403, message: 'Please verify your email address first' },
  organisation_forbidden: { status: 403, message: 'You do not have access to this organisation' },
  organisation_not_found: { status: 404, message: 'Organisation not found' },
  user_not_member: { status: 404, message: 'This user is not a member of the organisation' },
  bad_idempotency_key: { status: 400, message: 'The idempotency-key header must be 1 to 200 characters' },
  duplicate_request: { status: 409, message: 'This action was already received and was not repeated' },

  // Sign-in and accounts (spec §7, §8).
  'auth/wrong-password': { status: 400, message: authMessages.invalidCredentials },
  'auth/user-not-found': { status: 400, message: authMessages.invalidCredentials },
  'auth/invalid-email': { status: 400, message: validationMessages.emailInvalid },
  'auth/district-sso': { status: 400, message: authMessages.districtSso },
  'auth/city-government': { status: 400, message: authMessages.cityGovernment },
  'auth/domain-refused': { status: 400, message: authMessages.districtSso },
  'auth/missing-display-name': { status: 400, message: validationMessages.nameRequired },
  'auth/weak-password': { status: 400, message: validationMessages.passwordTooShort },
  'auth/email-already-in-use': { status: 400, message: authMessages.emailAlreadyInUse },
  'auth/account-exists-with-different-credential': { status: 401, message: 'You already have account, please use that to sign in' },
  'auth/invalid-id-token': { status: 401, message: 'Your sign-in has expired, please sign in again' },
  'auth/too-many-requests': { status: 429, message: authErrorCodeMessages['auth/too-many-requests'] },
  'auth/internal-error': { status: 500, message: 'The account was created but could not be signed in' },
  not_allowed_as_teacher: { status: 403, message: authMessages.signUpAsAdminRefused },
  sign_in_link_used: { status: 400, message: authMessages.signInLinkUsed },
  name_too_long: { status: 400, message: `The name can be at most ${INPUT_LIMITS.displayNameMax} characters` },
  password_too_long: { status: 400, message: `The password can be at most ${INPUT_LIMITS.passwordMax} characters` },
  avatar_too_large: { status: 400, message: 'The avatar image is too large' },
  user_not_found: { status: 404, message: 'User not found' },
  chat_support_disabled: { status: 404, message: 'Chat support is not configured' },

  // Teachers (members).
  teacher_not_found: { status: 404, message: 'Teacher not found' },
  teacher_pending: { status: 409, message: "A pending teacher's role cannot be changed until they sign up" },
  teacher_inactive: { status: 409, message: 'Inactive teachers and students cannot be given a license' },
  invalid_cursor: { status: 400, message: 'This cursor does not belong to this list: start again from the first page' },
  selection_changed: { status: 409, message: 'The selection changed since it was counted: review it and try again' },
  license_other_schools: {
    status: 409,
    message: "Licenses belong to each school: the district's licenses go only to the district's own teachers. Open a school to assign its licenses.",
  },
  remove_not_allowed: { status: 403, message: 'Only pending teachers can be removed from this organisation' },
  invalid_role: { status: 400, message: 'The role must be 400 (library manager) or 600 (teacher)' },
  org_libraries_off: { status: 409, message: 'Library managers need the organisation libraries feature' },
  invalid_emails: { status: 400, message: validationMessages.emailInvalid },
  no_emails: { status: 400, message: validationMessages.emailRequired },
  domain_organisation: { status: 403, message: importMessages.forbidden },
  licenses_not_granted: { status: 409, message: importMessages.licensesNotGranted },
  invalid_library_name: { status: 400, message: 'The library name must be 1 to 128 characters' },
  already_converted: { status: 409, message: 'This teacher has already been converted' },
  self: { status: 409, message: "You can't switch your own account to a student" },

  // Licences.
  license_not_found: { status: 404, message: 'License not found' },
  license_applies_to_all: { status: 409, message: 'This license applies to all teachers and cannot be assigned individually' },
  not_enough_licenses: { status: 409, message: 'There are not enough licenses left' },

  // Teacher e-mails.
  invalid_date: { status: 400, message: 'The date must be a valid date (YYYY-MM-DD)' },
  email_subject_too_long: { status: 400, message: `The subject can be at most ${INPUT_LIMITS.emailSubjectMax} characters` },
  email_message_too_long: {
    status: 400,
    message: `The message can be at most ${INPUT_LIMITS.emailMessageMax.toLocaleString('en-GB')} characters`,
  },
  too_many_recipients: { status: 400, message: `One e-mail can go to at most ${INPUT_LIMITS.emailMembersMax} teachers` },
  invalid_email_message: { status: 400, message: validationMessages.messageRequired },

  // Admins.
  email_required: { status: 400, message: validationMessages.emailRequired },
  invalid_email: { status: 400, message: validationMessages.emailInvalid },
  too_many_emails: { status: 400, message: 'At most 1000 e-mails can be handled at once' },
  provider_email: { status: 400, message: "Provider staff can't be added as admins" },
  last_admin: {
    status: 409,
    message: "An organisation needs at least one admin of its own, so the last admin can't be removed. Add another admin first.",
  },

  // Teacher libraries: scope, visits, transfers, removal.
  not_authorised_user: { status: 403, message: libraryMessages.notAuthorisedRequestedUser },
  organisation_required: { status: 400, message: 'Say which organisation the teacher belongs to (organisationId)' },
  organisation_mismatch: { status: 400, message: 'The organisation named in the request does not agree with itself' },
  library_not_found: { status: 404, message: 'Library not found' },
  visit_not_allowed: { status: 403, message: libraryMessages.visitNotAllowed },
  visit_forbidden: { status: 403, message: libraryMessages.joinForbidden },
  visit_reason_required: { status: 400, message: validationMessages.visitReasonRequired },
  visit_reason_too_long: { status: 400, message: validationMessages.visitReasonTooLong },
  same_owner: { status: 400, message: "A teacher can't be given their own libraries: choose someone else" },
  target_not_found: { status: 404, message: 'The chosen teacher or admin is not in this organisation' },
  target_pending: { status: 409, message: "This teacher hasn't signed up yet, so they can't be given libraries" },
  target_inactive: {
    status: 409,
    message: "This teacher has been removed from the organisation or is a student, so they can't be given libraries",
  },
  cannot_delete: { status: 409, message: 'This teacher cannot be deleted' },

  // Organisation and settings.
  invalid_organisation_name: { status: 400, message: validationMessages.organisationNameEmpty },
  invalid_settings: { status: 400, message: 'The settings are not valid' },
  setting_locked_by_district: { status: 409, message: 'This setting is locked by the district: only its admins can change it, in the district’s settings.' },
  setting_policies_need_schools: { status: 409, message: 'Only an organisation with schools under it can set their settings.' },

  // Portfolios, avatars and covers.
  portfolios_not_enabled: { status: 404, message: portfolioMessages.notEnabled },
  not_own_export: { status: 403, message: 'You can only request the export for yourself' },
  no_export_yet: { status: 425, message: portfolioMessages.noExportYet },
  link_invalid: { status: 403, message: 'This download link is not valid' },
  link_expired: { status: 410, message: 'This download link has expired. Open Portfolios again for a new one.' },
  export_gone: { status: 404, message: 'This export is no longer available. Open Portfolios again for the newest one.' },
  downloads_busy: { status: 503, message: 'Too many portfolio downloads are running at once. Try again in a minute.' },
  avatar_not_found: { status: 404, message: 'No avatar' },
  cover_not_found: { status: 404, message: 'No cover' },

  // Analytics.
  invalid_events: { status: 400, message: 'Some events are not valid; nothing was recorded' },
  invalid_range: { status: 400, message: 'from: must not be after to' },
  analytics_intake_off: { status: 404, message: 'Analytics intake is not configured on this server (ANALYTICS_INGEST_KEY)' },
  analytics_key_invalid: { status: 401, message: 'A valid analytics intake key is required' },
  signed_url_missing: { status: 403, message: 'This analytics link is not signed' },
  signed_url_invalid: { status: 403, message: 'This analytics link is not valid' },
  signed_url_expired: { status: 403, message: 'This analytics link has expired' },

  // GraphQL requests refused before they run, and errors of a query that ran.
  graphql_bad_request: { status: 400, message: 'The request has no query' },
  graphql_batch_refused: { status: 400, message: 'Send one operation per request' },
  graphql_parse_failed: { status: 400, message: 'The query could not be parsed' },
  graphql_too_complex: { status: 400, message: 'The query is too complex' },
  graphql_introspection_disabled: { status: 400, message: 'Introspection is not available' },
  graphql_method_not_allowed: { status: 405, message: 'Only queries can be sent with GET; send changes with POST' },
  graphql_error: { status: 400, message: 'The query is not valid' },

  // LTI: credentials, and launches refused (shown on the launch's error page or sent back to the platform).
  lti_credentials_exist: { status: 409, message: 'This organisation already has LTI credentials; revoke them first' },
  lti_message_type: { status: 400, message: 'This is not an LTI launch request: lti_message_type must be basic-lti-launch-request.' },
  lti_version: { status: 400, message: 'This LTI version is not supported: lti_version must be LTI-1p0.' },
  lti_resource_link_id: { status: 400, message: 'This launch has no resource_link_id. Check how the link is set up in your learning platform.' },
  lti_not_signed: { status: 400, message: 'This launch is not signed with OAuth 1.0a (HMAC-SHA1 or HMAC-SHA256).' },
  lti_repeated_oauth: {
    status: 400,
    message: 'This launch names an OAuth parameter (oauth_…) more than once, which OAuth 1.0a does not allow. Check how the learning platform signs launches.',
  },
  lti_too_many_parameters: {
    status: 400,
    message: `This launch carries more than ${LTI_MAX_PARAMETERS.toLocaleString('en')} parameters, more than any learning platform sends. Check the link's custom parameters.`,
  },
  lti_launch_too_large: {
    status: 413,
    message: `This launch is larger than ${LTI_MAX_BODY_BYTES / 1024} KiB, more than any learning platform sends. Check the link's custom parameters.`,
  },
  lti_launch_not_form: {
    status: 415,
    message: 'A launch is a form post (application/x-www-form-urlencoded) from a learning platform; this request sent something else.',
  },
  lti_launch_url: {
    status: 404,
    message: 'This launch was sent to another address than the tool’s launch URL. Set the launch URL shown on the LMS Integration page in your learning platform.',
  },
  lti_unknown_key: {
    status: 401,
    message: 'The consumer key of this launch is not recognised; it may have been revoked. Ask your administrator for the current key and secret.',
  },
  lti_signature: { status: 401, message: 'The signature of this launch is not valid. Check the consumer secret set up in your learning platform.' },
  lti_timestamp: { status: 401, message: LAUNCH_EXPIRED },
  lti_replay: { status: 401, message: LAUNCH_USED },
  lti_no_user: { status: 400, message: 'The learning platform did not send a user id. Set the tool’s privacy to send user information (name and email).' },
  lti_admin_account: {
    status: 403,
    message: 'This account manages an organisation and cannot be signed in from a learning platform. Sign in to the admin console directly.',
  },
  lti_account_has_own_sign_in: {
    status: 409,
    message:
      'This learning platform account is linked to an account that signs in directly, so it cannot be signed in from a learning platform. Ask your administrator for help.',
  },
  lti_member_removed: { status: 403, message: 'Your account has been removed from this organisation. Ask your administrator for help.' },
  lti_platform_exists: { status: 409, message: 'A learning platform with this issuer and client id is already registered.' },
  lti_platform_not_found: { status: 404, message: 'This learning platform is not registered with this organisation.' },
  lti_platform_url_insecure: { status: 400, message: 'The platform’s addresses must be https (http is accepted only for this computer’s own addresses outside production).' },
  lti_platform_unknown: {
    status: 400,
    message: 'This learning platform is not registered for LTI 1.3. Ask your administrator to add it on the LMS Integration page (issuer and client id).',
  },
  lti_login_invalid: { status: 400, message: 'This LTI 1.3 login is missing its issuer, login hint or target link, or its target link is not this tool.' },
  lti_state_invalid: { status: 401, message: 'This launch does not come from a login this tool started, or it took too long. Please launch again.' },
  lti_state_lost: {
    status: 401,
    message: 'Your browser did not keep this launch’s session (it may block cookies inside your learning platform). Open the tool in a new window to continue.',
  },
  lti_storage_mismatch: {
    status: 401,
    message: 'Your learning platform did not give back this launch’s login for this browser. Open the tool in a new window to continue.',
  },
  lti_registration_expired: {
    status: 401,
    message: 'This registration address has expired or has been used already. Get a new one on the LMS Integration page.',
  },
  lti_registration_config: {
    status: 400,
    message: 'The learning platform’s configuration could not be read, or it is not an LTI 1.3 platform’s (an https issuer that is the address’s own, with its endpoints).',
  },
  lti_registration_refused: { status: 400, message: 'The learning platform did not accept the tool’s registration.' },
  lti_id_token_invalid: { status: 401, message: 'The learning platform’s id_token for this launch is not valid.' },
  lti_id_token_expired: { status: 401, message: LAUNCH_EXPIRED },
  lti_id_token_replay: { status: 401, message: LAUNCH_USED },
  lti_deployment_unknown: {
    status: 403,
    message: 'This deployment of the tool is not registered. Ask your administrator to add its deployment id on the LMS Integration page.',
  },
  lti_message_type_unsupported: { status: 400, message: 'This tool takes LTI 1.3 resource link launches and deep linking requests only.' },
  lti_version_unsupported: { status: 400, message: 'This LTI version is not supported: the launch must be LTI 1.3.0.' },
  lti_roles_missing: { status: 400, message: 'The learning platform did not send the user’s roles with this launch.' },
  lti_deep_link_student: {
    status: 403,
    message: 'Only a teacher can choose what a link opens. Ask your course’s teacher to add this link.',
  },
  lti_deep_link_return_missing: {
    status: 400,
    message: 'The learning platform did not say where to return the chosen link (deep_link_return_url). Check how the tool is set up in your learning platform.',
  },
  lti_deep_link_return_insecure: {
    status: 400,
    message: 'The learning platform’s address to return the chosen link to is not https. Check how the tool is set up in your learning platform.',
  },
  lti_deep_link_types: {
    status: 400,
    message: 'The learning platform does not accept an LTI resource link here, which is what this tool adds. Add the tool where the platform offers external tool links.',
  },
  lti_deep_link_expired: {
    status: 401,
    message: 'This choice does not come from a launch of this tool, or it took too long. Please add the link again from your learning platform.',
  },
  lti_deep_link_book_id: {
    status: 400,
    message: 'Enter the book’s id: letters, digits, dots, dashes or underscores, at most 128 characters.',
  },
  lti_too_many_accounts: {
    status: 429,
    message: 'This learning platform has created too many new accounts in a short time. Please try again in a few minutes.',
  },

  // Signed links tied to the session that asked for them.
  signed_url_session_ended: { status: 403, message: 'This analytics link belongs to a session that has ended or lost access. Open Analytics again.' },
  link_session_ended: {
    status: 403,
    message: 'This download link belongs to a session that has ended or lost access. Open Portfolios again for a new one.',
  },
  avatar_too_many_pixels: { status: 400, message: `The avatar image has too many pixels: at most ${INPUT_LIMITS.avatarMaxPixels.toLocaleString('en')}` },
  district_sso: { status: 400, message: authMessages.districtSso },

  // Districts over schools: moving an organisation (docs/districts.md).
  provider_staff_only: { status: 403, message: 'Only provider staff can move an organisation to another district.' },
  organisation_tree_cycle: { status: 400, message: 'An organisation cannot be placed under itself or under an organisation below it.' },
  organisation_tree_depth: { status: 400, message: 'Organisations can be nested at most three levels deep (region, district, school).' },
  organisation_parent_is_school: {
    status: 409,
    message: 'An organisation can only be placed under a district: this one is a school of a district (teachers of its own, nothing under it).',
  },
  parent_not_found: { status: 404, message: 'The district to move the organisation to was not found.' },
  allocated_seats_held: {
    status: 409,
    message: 'This school holds seats allocated by its district: the district must return them (set the allocation to 0) before the school can be moved.',
  },
  last_district_admin: {
    status: 409,
    message: "Schools of this district have no admins of their own, so the district's last admin can't be removed. Add another district admin first.",
  },

  // Districts over schools: seats of a district licence allocated to its schools (docs/districts.md).
  allocation_exceeds_license: { status: 409, message: 'The district cannot allocate more seats than it holds.' },
  allocation_below_assigned: {
    status: 409,
    message: 'The school has assigned more seats than that: remove licenses from its teachers before lowering its allocation.',
  },
  allocation_not_allowed: { status: 409, message: 'Seats of this license cannot be allocated to this school.' },
  not_enough_allocated_licenses: { status: 409, message: 'There are not enough licenses left in the allocation from the district' },

  // Automatic provisioning over SCIM 2.0 (docs/provisioning.md): the console's tokens, and the endpoint's refusals
  // (answered in SCIM's own error format, with the scimType the code names).
  scim_token_not_found: { status: 404, message: 'This SCIM token was not found; it may have been revoked already.' },
  scim_too_many_tokens: { status: 409, message: 'This organisation already has 10 SCIM tokens: revoke one before generating another.' },
  scim_unauthorised: { status: 401, message: 'A valid SCIM bearer token is required (Authorization: Bearer <token>).' },
  scim_invalid_filter: { status: 400, message: 'The filter is not valid or not supported.' },
  scim_invalid_value: { status: 400, message: 'A value in the request is not valid.' },
  scim_invalid_syntax: { status: 400, message: 'The request is not a valid SCIM message.' },
  scim_invalid_path: { status: 400, message: 'The PATCH path is not valid or names an attribute that is not supported.' },
  scim_mutability: { status: 400, message: 'The request tries to change an attribute that cannot be changed.' },
  scim_uniqueness: { status: 409, message: 'A user with this userName or e-mail already exists in this organisation.' },
  scim_user_not_found: { status: 404, message: 'User not found.' },
  scim_group_not_found: { status: 404, message: 'Group not found.' },
  scim_method_not_allowed: { status: 405, message: 'This method is not supported on this SCIM resource.' },
  // Rostering from a student information system (docs/rostering.md).
  roster_file_invalid: { status: 400, message: 'This file is not a OneRoster CSV zip Quire can read.' },
  roster_upload_too_large: { status: 413, message: 'The file is larger than 100 MB.' },
  roster_import_not_found: { status: 404, message: 'This import was not found.' },
  roster_import_closed: { status: 409, message: 'This import has already been applied or cancelled.' },
  roster_import_has_errors: { status: 409, message: 'The file has errors and all-or-nothing was chosen: nothing was applied.' },
  roster_org_unknown: { status: 400, message: 'An organisation in the list is not this organisation or one under it.' },
  // 2-step verification (docs/identity.md "2-step verification").
  two_step_required: { status: 401, message: 'Enter the code from your authenticator app or a recovery code to finish signing in.' },
  two_step_enrolment_required: { status: 403, message: 'Your organisation requires 2-step verification: turn it on before you continue.' },
  two_step_code_malformed: { status: 400, message: 'Enter the 6-digit code from your authenticator app, or a recovery code such as abcde-12345.' },
  two_step_code_wrong: { status: 400, message: 'That code is not right, or it was already used. Wait for the next code and try again.' },
  two_step_proof_wrong: { status: 400, message: 'That password or code is not right.' },
  two_step_too_many_tries: { status: 429, message: 'Too many wrong codes. Please wait before you try again.' },
  two_step_enrolment_expired: { status: 400, message: 'This set-up has expired. Start again to get a new QR code.' },
  two_step_already_on: { status: 409, message: '2-step verification is already on for this account.' },
  two_step_not_on: { status: 409, message: '2-step verification is not on for this account.' },
  two_step_reset_self: { status: 403, message: 'You cannot reset your own 2-step verification: turn it off on your Security page.' },
  passkey_not_found: { status: 404, message: 'That passkey is not on your account any more.' },
  passkey_refused: { status: 400, message: 'That passkey could not be checked. Try again, or use another way to sign in.' },
  passkey_challenge_expired: { status: 400, message: 'This passkey request has expired or was already used. Try again.' },
  passkey_last_method: { status: 409, message: 'This is your only way of 2-step verification: turn 2-step verification off instead.' },
} as const satisfies Record<string, ErrorEntry>;

/** A code of the catalogue: what the server answers with and the console compares. */
export type ErrorCode = keyof typeof errorCatalogue;

export const errorCodes = Object.keys(errorCatalogue) as ErrorCode[];
