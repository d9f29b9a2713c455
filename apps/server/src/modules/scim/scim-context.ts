import type { AdminEmailRules } from '@quire/core';

/** What a SCIM request acts with, once its bearer token is verified: never an organisation the request names. */
export interface ScimContext {
  organisationId: string;
  tokenId: string;
  /** The endpoint's base URL, for meta.location. */
  baseUrl: string;
  /** The group whose members are the organisation's admins, and the rules an admin's address must meet. */
  admins: { groupName: string; emailRules: AdminEmailRules };
}
