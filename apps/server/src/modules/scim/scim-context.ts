import type { AdminEmailRules } from '@quire/core';
import type { AuditSystemActor } from '../access/audit.js';

/** What a SCIM request acts with, once its bearer token is verified: never an organisation the request names. */
export interface ScimContext {
  organisationId: string;
  tokenId: string;
  /** The endpoint's base URL, for meta.location. */
  baseUrl: string;
  /** The group whose members are the organisation's admins, and the rules an admin's address must meet. */
  admins: { groupName: string; emailRules: AdminEmailRules };
  /** The group whose members are the organisation's library managers (pending ones once they sign up). */
  libraryManagers: { groupName: string };
}

/** Who SCIM requests are in the audit log: the identity provider, by the token it called with. */
export function scimActor(ctx: ScimContext): AuditSystemActor {
  return { kind: 'identity_provider', id: ctx.tokenId, name: 'Identity provider (SCIM)' };
}
