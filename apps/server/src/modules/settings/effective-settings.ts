import type { Kysely, Transaction } from 'kysely';
import {
  APP_SETTING_VALUES,
  findApp,
  IMAGE_SEARCH_VALUES,
  resolveSettings,
  SETTING_POLICY_MODES,
  type AppSettingValue,
  type EffectiveSettings,
  type ImageSearchValue,
  type OrganisationSettingsNode,
  type ResolvedSettings,
  type SettingPolicies,
  type SettingPolicy,
} from '@quire/core';
import type { DB, OrganisationSettings, StoredSettingPolicies } from '../../db/types.js';
import { appError } from '../../errors.js';
import { actingUserMismatch, checkSessionActor, type Actor, type SessionRef } from '../access/actor.js';
import { orgAccessLevel, type OrgNeed } from '../access/org-access.js';
import * as repo from './settings.repository.js';

type Db = Kysely<DB> | Transaction<DB>;

const isAppValue = (v: unknown): v is AppSettingValue => APP_SETTING_VALUES.includes(v as AppSettingValue);
const isImageSearchValue = (v: unknown): v is ImageSearchValue => IMAGE_SEARCH_VALUES.includes(v as ImageSearchValue);

function policyOf<V>(stored: unknown, isValue: (v: unknown) => v is V): SettingPolicy<V> | null {
  if (!stored || typeof stored !== 'object') return null;
  const { mode, value } = stored as { mode?: unknown; value?: unknown };
  return SETTING_POLICY_MODES.includes(mode as SettingPolicy<V>['mode']) && isValue(value) ? { mode: mode as SettingPolicy<V>['mode'], value } : null;
}

/** The organisation's own values as stored, known apps and valid values only (a value written by hand is ignored). */
export function ownSettings(stored: OrganisationSettings | undefined): { apps: Partial<Record<string, AppSettingValue>>; imageSearch: ImageSearchValue | null } {
  const apps: Partial<Record<string, AppSettingValue>> = {};
  for (const [id, value] of Object.entries(stored?.apps ?? {})) if (findApp(id) && isAppValue(value)) apps[id] = value;
  return { apps, imageSearch: isImageSearchValue(stored?.imageSearch) ? stored.imageSearch : null };
}

/** The organisation's policies for those below it as stored, known apps and valid policies only. */
export function ownPolicies(stored: StoredSettingPolicies | undefined): SettingPolicies {
  const apps: SettingPolicies['apps'] = {};
  for (const [id, value] of Object.entries(stored?.apps ?? {})) {
    const policy = policyOf(value, isAppValue);
    if (findApp(id) && policy) apps[id as keyof typeof apps] = policy;
  }
  return { apps, imageSearch: policyOf(stored?.imageSearch, isImageSearchValue) };
}

function nodesOf(chain: readonly repo.SettingsChainRow[]): OrganisationSettingsNode[] {
  return chain.map((row) => ({ id: row.id, name: row.name, own: ownSettings(row.settings), policies: ownPolicies(row.setting_policies) }));
}

/** The settings of the chain's first organisation, resolved (pure rule of @quire/core). */
export function resolveChain(chain: readonly repo.SettingsChainRow[]): ResolvedSettings {
  return resolveSettings(nodesOf(chain));
}

/** The effective-settings answer for the chain's first organisation. */
export function presentEffective(chain: readonly repo.SettingsChainRow[]): EffectiveSettings {
  const self = chain[0];
  if (!self) throw appError('organisation_not_found');
  const resolved = resolveChain(chain);
  return {
    organisationId: self.id,
    apps: resolved.apps as EffectiveSettings['apps'],
    imageSearch: resolved.imageSearch,
    sources: resolved.sources as EffectiveSettings['sources'],
    policies: ownPolicies(self.setting_policies),
    hasOrganisationsBelow: self.has_children,
  };
}

/**
 * The organisation's settings chain and the actor's access to it, in one statement (the closure join; docs/districts.md
 * gives its time): 404 when the organisation does not exist, 403 without access, 403 admin_required for 'admin'.
 */
export async function readChainWithAccess(db: Db, actor: Actor, organisationId: string, need: OrgNeed): Promise<repo.SettingsChainRow[]> {
  return refuseWithoutAccess(await repo.findSettingsChain(db, organisationId, { access: orgAccessLevel(db, actor, organisationId) }), need);
}

/**
 * readChainWithAccess for a request whose session is read in the same statement (SessionRef): the session, the access
 * decision and the chain in one round trip, then the actor hook's refusals (401 without a live session, an
 * X-Acting-User or `userId` naming someone else), then readChainWithAccess's.
 */
export async function readChainForSession(db: Kysely<DB>, ref: SessionRef, organisationId: string, need: OrgNeed, userId?: string): Promise<repo.SettingsChainRow[]> {
  const rows = await repo.findSettingsChainForSession(db, ref.token, organisationId);
  const actorId = rows[0]?.actor_id ?? null;
  checkSessionActor(ref, actorId);
  if (userId !== undefined && userId !== actorId) throw actingUserMismatch();
  return refuseWithoutAccess(rows.filter((row): row is repo.SessionChainRow & repo.SettingsChainRow => row.id !== null), need);
}

function refuseWithoutAccess(chain: repo.SettingsChainRow[], need: OrgNeed): repo.SettingsChainRow[] {
  const level = chain[0]?.access;
  if (chain.length === 0) throw appError('organisation_not_found');
  if (!level) throw appError('organisation_forbidden');
  if (need === 'admin' && level !== 'admin') throw appError('admin_required');
  return chain;
}
