import type { Kysely } from 'kysely';
import {
  allowedApps,
  findApp,
  IMAGE_SEARCH_PIXABAY,
  type OrganisationSettingsPayload,
  type SettingsUpdate,
  type UserApps,
} from '@quire/core';
import type { DB, OrganisationSettings } from '../../db/types.js';
import { appError } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import { recordAudit } from '../access/audit.js';
import { findOrgAccess, isListedAdmin, requireOrgAccess } from '../access/org-access.js';
import * as repo from './settings.repository.js';

/** The stored settings as the API answers them: only known apps with a valid value, imageSearch or null. */
function presentSettings(stored: OrganisationSettings | undefined): OrganisationSettingsPayload {
  const apps: OrganisationSettingsPayload['apps'] = {};
  for (const [id, value] of Object.entries(stored?.apps ?? {})) {
    if (findApp(id) && (value === 1 || value === -1)) apps[id as keyof typeof apps] = value;
  }
  return { apps, imageSearch: stored?.imageSearch === IMAGE_SEARCH_PIXABAY ? IMAGE_SEARCH_PIXABAY : null };
}

/** The spec passes the acting user's id along; when given it must be the signed-in user. */
function checkUserId(actor: Actor, userId: string | undefined): void {
  if (userId !== undefined && userId !== actor.userId) {
    throw appError('acting_user_mismatch');
  }
}

/** Read organisation settings (spec §7): the organisation's admins and library managers. */
export async function readSettings(db: Kysely<DB>, actor: Actor, organisationId: string, userId?: string): Promise<OrganisationSettingsPayload> {
  checkUserId(actor, userId);
  const { organisation } = await requireOrgAccess(db, actor, organisationId, 'read', { missing: 'not-found' });
  return presentSettings(organisation.settings);
}

interface Change {
  setting: string;
  old: unknown;
  new: unknown;
}

/**
 * Update organisation settings (spec §7) and the updateSettings mutation: admins only; a partial
 * change merged in the database; every changed value in the audit trail with its old and new value.
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
  const setApps: Record<string, 1 | -1> = {};
  const unsetApps: string[] = [];
  for (const [id, value] of Object.entries(update.apps ?? {})) {
    if (value === 1 || value === -1) setApps[id] = value;
    else unsetApps.push(id);
  }
  return db.transaction().execute(async (trx) => {
    // The row lock orders concurrent changes; the merge itself happens in the UPDATE (repository).
    const before = presentSettings(await repo.findSettings(trx, organisationId, { forUpdate: true }));
    const after = presentSettings(await repo.mergeSettings(trx, organisationId, { setApps, unsetApps, imageSearch: update.imageSearch }));
    const changes: Change[] = [];
    for (const id of [...Object.keys(setApps), ...unsetApps]) {
      const key = id as keyof typeof before.apps;
      const old = before.apps[key] ?? null;
      const next = after.apps[key] ?? null;
      if (old !== next) changes.push({ setting: `apps.${id}`, old, new: next });
    }
    if (update.imageSearch !== undefined && before.imageSearch !== after.imageSearch) {
      changes.push({ setting: 'imageSearch', old: before.imageSearch, new: after.imageSearch });
    }
    if (changes.length > 0) {
      await recordAudit(trx, actor, { organisationId, action: 'settings.update', targetType: 'organisation_settings', targetIds: [organisationId], details: { changes } });
    }
    return after;
  });
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
  if (!found.level && !(self && actor.emailVerified && (activeMember || admin))) {
    throw appError('organisation_forbidden');
  }
  if (!activeMember && !admin) throw appError('user_not_member');
  const kind = activeMember?.is_student ? 'student' : 'teacher';
  const settings = presentSettings(found.organisation.settings);
  return {
    userId,
    organisationId,
    kind,
    apps: allowedApps(settings.apps, kind).map((a) => ({ id: a.id as UserApps['apps'][number]['id'], name: a.name, premium: a.premium })),
    imageSearch: settings.imageSearch === IMAGE_SEARCH_PIXABAY ? 'pixabay' : 'google',
  };
}
