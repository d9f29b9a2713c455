import { ltiCredentialsChange } from './lti-credentials-change.js';

/** generateLTICredentials(orgId): a new key and secret (refused when the organisation has some); a failure reads them again. */
export const { call: generateLtiCredentials, useCall: useGenerateLtiCredentials } = ltiCredentialsChange('generateLTICredentials', { readAgainOnError: true });
