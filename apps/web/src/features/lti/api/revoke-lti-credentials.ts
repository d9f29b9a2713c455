import { ltiCredentialsChange } from './lti-credentials-change.js';

/** revokeLTICredentials(orgId): launches with the old key are refused at once. */
export const { useCall: useRevokeLtiCredentials } = ltiCredentialsChange('revokeLTICredentials');
