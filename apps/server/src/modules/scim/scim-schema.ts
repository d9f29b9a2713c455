/** The SCIM 2.0 URNs and limits Quire's endpoint uses (RFC 7643, RFC 7644). */
export const SCIM_USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const SCIM_ENTERPRISE_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const SCIM_LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const SCIM_PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const SCIM_CONTENT_TYPE = 'application/scim+json';

/** Most resources one list answers (ServiceProviderConfig's filter.maxResults); a larger count is lowered to it. */
export const SCIM_MAX_RESULTS = 200;
/** A SCIM request body is a few kilobytes; anything past this is refused (413) before it is parsed. */
export const SCIM_BODY_LIMIT = 64 * 1024;
/** Longest text kept for userName, externalId and the other strings. */
export const SCIM_TEXT_MAX = 256;
/** Operations one PATCH may carry. */
export const SCIM_MAX_PATCH_OPERATIONS = 100;
export const SCIM_GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
