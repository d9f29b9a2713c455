import type { Kysely } from 'kysely';
import { auditSettingValues, type EffectiveSettings, type SettingKey, type SettingPoliciesUpdate } from '@quire/core';
import type { DB, StoredSettingPolicies } from '../../db/types.js';
import { appError } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import { recordAudit } from '../access/audit.js';
import { requireOrgAccess } from '../access/org-access.js';
import { ownPolicies, presentEffective, resolveChain } from './effective-settings.js';
import * as repo from './settings.repository.js';
import { refuseLocked, type Change } from './settings.service.js';

/**
 * Sets an organisation's policies for the organisations below it (docs/settings.md "Districts"): per setting, a value
 * locked or as a default, or back to 'Let schools decide' (null). Only its admins (an admin of an organisation above
 * it is one too); refused at an organisation with nothing under it, and for a setting an organisation above has locked.
 * The schools' own values are never written here: a lifted lock gives each its own value back. Recorded with old and
 * new policy. Answers the organisation's effective settings, its policies included.
 */
export async function updateSettingPolicies(db: Kysely<DB>, actor: Actor, organisationId: string, update: SettingPoliciesUpdate): Promise<EffectiveSettings> {
  await requireOrgAccess(db, actor, organisationId, 'admin', { missing: 'not-found' });
  const setApps: NonNullable<StoredSettingPolicies['apps']> = {};
  const unsetApps: string[] = [];
  for (const [id, policy] of Object.entries(update.apps ?? {})) {
    if (policy) setApps[id] = policy;
    else unsetApps.push(id);
  }
  const keys: SettingKey[] = [...Object.keys(setApps), ...unsetApps].map((id) => `apps.${id}` as const);
  if (update.imageSearch !== undefined) keys.push('imageSearch');
  return db.transaction().execute(async (trx) => {
    const storedBefore = await repo.findPoliciesForUpdate(trx, organisationId);
    const chain = await repo.findSettingsChain(trx, organisationId, { lockAncestors: true });
    const [self, ...above] = chain;
    if (!self || storedBefore === undefined) throw appError('organisation_not_found');
    if (!self.has_children) throw appError('setting_policies_need_schools');
    // A district under a region's lock cannot set its own policy for that setting either.
    refuseLocked(resolveChain(chain), keys);
    const before = ownPolicies(storedBefore);
    const stored = await repo.mergePolicies(trx, organisationId, { setApps, unsetApps, imageSearch: update.imageSearch });
    const after = ownPolicies(stored);
    const changes: Change[] = [];
    for (const id of [...Object.keys(setApps), ...unsetApps]) {
      const key = id as keyof typeof before.apps;
      const old = before.apps[key] ?? null;
      const next = after.apps[key] ?? null;
      if (JSON.stringify(old) !== JSON.stringify(next)) changes.push({ setting: `apps.${id}`, old, new: next });
    }
    if (update.imageSearch !== undefined && JSON.stringify(before.imageSearch) !== JSON.stringify(after.imageSearch)) {
      changes.push({ setting: 'imageSearch', old: before.imageSearch, new: after.imageSearch });
    }
    if (changes.length > 0) {
      await recordAudit(trx, actor, {
        organisationId,
        action: 'settings.policies.update',
        targetType: 'organisation_setting_policies',
        targetIds: [organisationId],
        details: { changes },
        ...auditSettingValues(changes),
      });
    }
    return presentEffective([{ ...self, setting_policies: stored ?? {} }, ...above]);
  });
}
