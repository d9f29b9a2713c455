import { ROLE_LIBRARY_MANAGER } from '@quire/core';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/types.js';
import { setProvisionedLibraryManager } from '../members/members.service.js';
import { syncAdmins } from './scim-admins.service.js';
import * as repo from './scim-groups.repository.js';
import { scimActor, type ScimContext } from './scim-context.js';

/**
 * Library managers through a group (docs/provisioning.md): a provisioned user who is active and a member of the group
 * named as the organisation's library managers group is one of its library managers; leaving the group, deactivation or
 * deletion takes it back. Only what the group gave is taken back: a teacher made library manager on the Teachers screen
 * before joining keeps the role. A user still pending (not signed up) cannot hold a role yet: the grant is recorded and
 * the role starts when they sign up (the members module reads the grant then); the group lists them meanwhile.
 */
async function syncLibraryManagers(trx: Transaction<DB>, ctx: ScimContext, memberIds: Iterable<string>): Promise<void> {
  const { groupName } = ctx.libraryManagers;
  for (const memberId of [...new Set(memberIds)].sort()) {
    const { member, granted } = await repo.libraryManagerState(trx, ctx.organisationId, memberId, groupName);
    const wanted = member !== undefined && member.revoked_at === null && member.in_group;
    if (wanted === granted) continue;
    const pending = member !== undefined && (member.pending || member.role < 0);
    const details = { via: 'scim', tokenId: ctx.tokenId, group: groupName, memberId };
    const change = { organisationId: ctx.organisationId, memberId, pending, from: member?.role ?? 0, actor: scimActor(ctx), details };
    if (granted) {
      await repo.dropLibraryManagerGrant(trx, ctx.organisationId, memberId);
      // Taken back only while it is still the role the group gave (the Teachers screen may have changed it since).
      if (member && (pending || member.role === ROLE_LIBRARY_MANAGER)) await setProvisionedLibraryManager(trx, { ...change, manager: false });
      continue;
    }
    // Already a library manager before the group listed them: the group does not own the role.
    if (member && !pending && member.role === ROLE_LIBRARY_MANAGER) continue;
    await repo.recordLibraryManagerGrant(trx, ctx.organisationId, memberId);
    await setProvisionedLibraryManager(trx, { ...change, manager: true });
  }
}

/** Every role a group makes (admins, library managers), brought up to date for the users a change touched. */
export async function syncGroupRoles(trx: Transaction<DB>, ctx: ScimContext, memberIds: Iterable<string>): Promise<void> {
  const ids = [...memberIds];
  await syncAdmins(trx, ctx, ids);
  await syncLibraryManagers(trx, ctx, ids);
}
