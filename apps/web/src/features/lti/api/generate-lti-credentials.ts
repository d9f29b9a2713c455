import { ltiCredentialsChange } from './lti-credentials-change.js';

/** generateLTICredentials(orgId): a new key and secret (refused when the organisation has some); a failure reads them again. */
export const { useCall: useGenerateLtiCredentials } = ltiCredentialsChange('generateLTICredentials', { readAgainOnError: true });
