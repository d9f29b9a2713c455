import type { Kysely } from 'kysely';
import {
  allowedApps,
  auditSettingValues,
  IMAGE_SEARCH_PIXABAY,
  settingPolicyMessages,
  type EffectiveSettings,
  type OrganisationSettingsPayload,
  type ResolvedSettings,
  type SettingKey,
  type SettingsUpdate,
  type UserApps,
} from '@quire/core';
import type { DB } from '../../db/types.js';
import { appError } from '../../errors.js';
import type { Actor, SessionRef } from '../access/actor.js';
import { recordAudit, recordingRefusal } from '../access/audit.js';
import { findOrgAccess, isListedAdmin, requireOrgAccess } from '../access/org-access.js';
import { ownSettings, presentEffective, readChainForSession, readChainWithAccess, resolveChain } from './effective-settings.js';
import * as repo from './settings.repository.js';

/** The effective settings in the answer of the read and update calls: apps 1 or -1 (absent: teachers and students), imageSearch or null. */
function presentSettings(resolved: ResolvedSettings): OrganisationSettingsPayload {
  return { apps: resolved.apps as OrganisationSettingsPayload['apps'], imageSearch: resolved.imageSearch };
}

/** The spec passes the acting user's id along; when given it must be the signed-in user. */
function checkUserId(actor: Actor, userId: string | undefined): void {
  if (userId !== undefined && userId !== actor.userId) {
    throw appError('acting_user_mismatch');
  }
}

/**
 * The chain of an organisation, the caller's access checked ('read'): an actor's access decided in the chain's
 * statement, or a console request's session read in it too (the settings route: one statement a request).
 */
async function readChain(db: Kysely<DB>, caller: Actor | SessionRef, organisationId: string, userId?: string) {
  if ('token' in caller) return readChainForSession(db, caller, organisationId, 'read', userId);
  checkUserId(caller, userId);
  return readChainWithAccess(db, caller, organisationId, 'read');
}

/**
 * Read organisation settings (spec §7): the organisation's admins and library managers. The values in force: a
 * school's own, or its district's where the district applies one (docs/settings.md "Districts").
 */
export async function readSettings(db: Kysely<DB>, caller: Actor | SessionRef, organisationId: string, userId?: string): Promise<OrganisationSettingsPayload> {
  return presentSettings(resolveChain(await readChain(db, caller, organisationId, userId)));
}

/** The settings in force of an organisation whose access the caller has checked (getOrganisationById's settings). */
export async function readSettingsUnchecked(db: Kysely<DB>, organisationId: string): Promise<OrganisationSettingsPayload> {
  return presentSettings(resolveChain(await repo.findSettingsChain(db, organisationId)));
}

/** The effective settings with where each comes from, and the organisation's own policies (console screens). */
export async function readEffectiveSettings(db: Kysely<DB>, caller: Actor | SessionRef, organisationId: string, userId?: string): Promise<EffectiveSettings> {
  return presentEffective(await readChain(db, caller, organisationId, userId));
}

export interface Change {
  setting: SettingKey;
  old: unknown;
  new: unknown;
}

/**
 * The refusal of a change to settings locked by an organisation above (the one highest of them names itself), or
 * nothing. Everyone is refused, a district admin too: the lock is changed where it was set.
 */
export function refuseLocked(resolved: ResolvedSettings, keys: readonly SettingKey[]): void {
  const locked = keys.filter((key) => sourceOf(resolved, key).from === 'locked');
  const by = locked[0] ? sourceOf(resolved, locked[0]).setBy : null;
  if (by) throw appError('setting_locked_by_district', { message: settingPolicyMessages.refused(by.name), details: { settings: locked, lockedBy: by } });
}

function sourceOf(resolved: ResolvedSettings, key: SettingKey) {
  if (key === 'imageSearch') return resolved.sources.imageSearch;
  const source = resolved.sources.apps[key.slice('apps.'.length)];
  if (!source) throw appError('invalid_settings');
  return source;
}

/**
 * Update organisation settings (spec §7) and the updateSettings mutation: admins only; a partial change merged in the
 * database; a setting locked by a district refused (409 setting_locked_by_district, nothing changed); every changed
 * value in the audit trail with its old and new value (the organisation's own values).
 */
export async function updateSettings(
  db: Kysely<DB>,
  actor: Actor,
  organisationId: string,
  update: SettingsUpdate,
  userId?: string,
): Promise<OrganisationSettingsPayload> {
  checkUserId(actor, userId);
  await requireOrgAccess(db, actor, organisationId, 'admin', { missing: 'not-found' });
  const setApps: Record<string, 1 | -1 | 0> = {};
  const unsetApps: string[] = [];
  for (const [id, value] of Object.entries(update.apps ?? {})) {
    if (value === 1 || value === -1 || value === 0) setApps[id] = value;
    else unsetApps.push(id);
  }
  const keys: SettingKey[] = [...Object.keys(setApps), ...unsetApps].map((id) => `apps.${id}` as const);
  if (update.imageSearch !== undefined) keys.push('imageSearch');
  const refusal = { organisationId, action: 'settings.update' as const, targetType: 'organisation_settings', targetIds: [organisationId], details: { settings: keys } };
  return recordingRefusal(db, actor, refusal, ['setting_locked_by_district'], () => db.transaction().execute(async (trx) => {
    // The row lock orders concurrent changes of this organisation; the share locks hold its district's policies still
    // until the change is written. The merge itself happens in the UPDATE (repository).
    await repo.findSettings(trx, organisationId, { forUpdate: true });
    const chain = await repo.findSettingsChain(trx, organisationId, { lockAncestors: true });
    refuseLocked(resolveChain(chain), keys);
    const before = ownSettings(chain[0]?.settings);
    const stored = await repo.mergeSettings(trx, organisationId, { setApps, unsetApps, imageSearch: update.imageSearch });
    const after = ownSettings(stored);
    const changes: Change[] = [];
    for (const id of [...Object.keys(setApps), ...unsetApps]) {
      const old = before.apps[id] ?? null;
      const next = after.apps[id] ?? null;
      if (old !== next) changes.push({ setting: `apps.${id}`, old, new: next });
    }
    if (update.imageSearch !== undefined && before.imageSearch !== after.imageSearch) {
      changes.push({ setting: 'imageSearch', old: before.imageSearch, new: after.imageSearch });
    }
    if (changes.length > 0) {
      await recordAudit(trx, actor, {
        organisationId, action: 'settings.update', targetType: 'organisation_settings', targetIds: [organisationId], details: { changes },
        ...auditSettingValues(changes),
      });
    }
    const [self, ...above] = chain;
    if (!self || !stored) throw appError('organisation_not_found');
    return presentSettings(resolveChain([{ ...self, settings: stored }, ...above]));
  }));
}

/**
 * Which apps a user of the organisation may use, and which image search they get (docs/settings.md).
 * The user themself (a member or admin of the organisation) or the organisation's admins and library managers may ask.
 */
export async function appsForUser(db: Kysely<DB>, actor: Actor, organisationId: string, userId: string): Promise<UserApps> {
  const found = await findOrgAccess(db, actor, organisationId);
  if (!found) throw appError('organisation_not_found');
  const self = actor.userId === userId;
  // Another person is found by identity user only: a row that merely names their e-mail (an import) says nothing
  // about them (docs/security.md). The actor's own verified address still finds the rows listed under it.
  const email = self && actor.emailVerified ? actor.email : null;
  const member = await repo.findMemberOfUser(db, organisationId, { userId, email });
  const activeMember = member && member.revoked_at === null ? member : undefined;
  const admin = !activeMember && (await isListedAdmin(db, { userId, email }, organisationId));
  // A member found by their own user id needs no verified address: an account a launch made (never verified, by
  // design) reads its own apps. A row found by e-mail, or an admin listing, counts only for a verified address.
  const ownMember = activeMember !== undefined && activeMember.user_id === userId;
  if (!found.level && !(self && (ownMember || (actor.emailVerified && (activeMember || admin))))) {
    throw appError('organisation_forbidden');
  }
  if (!activeMember && !admin) throw appError('user_not_member');
  const kind = activeMember?.is_student ? 'student' : 'teacher';
  // The values in force, a district's lock or default included: the same resolution the console shows.
  const settings = resolveChain(await repo.findSettingsChain(db, organisationId));
  return {
    userId,
    organisationId,
    kind,
    apps: allowedApps(settings.apps, kind).map((a) => ({ id: a.id as UserApps['apps'][number]['id'], name: a.name, premium: a.premium })),
    imageSearch: settings.imageSearch === IMAGE_SEARCH_PIXABAY ? 'pixabay' : 'google',
  };
}
