import type { Transaction } from 'kysely';
import type { DB } from '../../db/types.js';
import { grantProvisionedAdmin, revokeProvisionedAdmin } from '../admins/admins.service.js';
import * as repo from './scim-groups.repository.js';
import { scimActor, type ScimContext } from './scim-context.js';

/**
 * Admins through a group (docs/provisioning.md): a provisioned user who is active and a member of the group named as
 * the organisation's admins group is one of its admins; one who leaves that group, is deactivated or deleted stops
 * being one. Only what a group granted is taken back: an address that was an admin before stays one. The admins
 * module makes each change, with its own rules and audit record, in the caller's transaction; a refusal (a
 * provider-staff address, the organisation's last admin) refuses the SCIM request and changes nothing.
 */
export async function syncAdmins(trx: Transaction<DB>, ctx: ScimContext, memberIds: Iterable<string>): Promise<void> {
  const { groupName, emailRules } = ctx.admins;
  for (const memberId of [...new Set(memberIds)].sort()) {
    const { user, grantedEmail } = await repo.adminState(trx, ctx.organisationId, memberId, groupName);
    const wanted = user && user.revoked_at === null && user.in_admins_group ? user.email : null;
    if (grantedEmail === wanted) continue;
    const details = { via: 'scim', tokenId: ctx.tokenId, group: groupName, memberId };
    if (grantedEmail !== null) {
      await revokeProvisionedAdmin(trx, emailRules.providerEmailDomain, { organisationId: ctx.organisationId, email: grantedEmail, details, actor: scimActor(ctx) });
      await repo.dropGrant(trx, ctx.organisationId, memberId);
    }
    if (wanted !== null && (await grantProvisionedAdmin(trx, emailRules, { organisationId: ctx.organisationId, email: wanted, details, actor: scimActor(ctx) }))) {
      await repo.recordGrant(trx, ctx.organisationId, memberId, wanted);
    }
  }
}
