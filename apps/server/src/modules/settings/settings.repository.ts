import type { OrgAccessLevel } from '@quire/core';
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { now } from '../../db/sql-helpers.js';
import { StatementShapes } from '../../db/statement-shapes.js';
import type { DB, OrganisationSettings, StoredSettingPolicies } from '../../db/types.js';
import { sessionOrgAccessRow } from '../access/org-access.js';

type Db = Kysely<DB> | Transaction<DB>;

export async function findSettings(db: Db, organisationId: string, options: { forUpdate?: boolean } = {}) {
  let query = db.selectFrom('organisations').select('settings').where('id', '=', organisationId);
  if (options.forUpdate) query = query.forUpdate();
  return (await query.executeTakeFirst())?.settings;
}

/** One organisation of a settings chain: the organisation itself (depth 0), its parent (1), its grandparent (2). */
export interface SettingsChainRow {
  depth: number;
  id: string;
  name: string;
  settings: OrganisationSettings;
  setting_policies: StoredSettingPolicies;
  /** Whether organisations sit under it (answered for depth 0 only; false above). */
  has_children: boolean;
  /** The caller's access to the organisation itself, when asked (the same value on every row). */
  access: OrgAccessLevel | null;
}

/**
 * The organisation and every organisation above it, nearest first, in one statement over the tree's closure: all that
 * settings resolution needs (docs/settings.md "Districts"). `access` decides the caller's access in the same statement;
 * `lockAncestors` takes a share lock on the chain's organisations, so a district's policy cannot change between a
 * school's check of it and the school's write (the writer holds its own row for update first, so two writers of one
 * organisation queue there instead of deadlocking).
 */
export async function findSettingsChain(
  db: Db,
  organisationId: string,
  options: { access?: RawBuilder<OrgAccessLevel | null>; lockAncestors?: boolean } = {},
): Promise<SettingsChainRow[]> {
  let query = chainQuery(db, organisationId).select((options.access ?? sql<OrgAccessLevel | null>`NULL::text`).as('access'));
  if (options.lockAncestors) query = query.forShare(['o']);
  return (await query.execute()) as SettingsChainRow[];
}

function chainQuery(db: Db, organisationId: string) {
  return db
    .selectFrom('organisation_ancestors as a')
    .innerJoin('organisations as o', 'o.id', 'a.ancestor_id')
    .select(['a.depth', 'o.id', 'o.name', 'o.settings', 'o.setting_policies'])
    .select((eb) =>
      eb
        .and([eb('a.depth', '=', 0), eb.exists(eb.selectFrom('organisations as below').select(sql`1`.as('one')).whereRef('below.parent_id', '=', 'o.id'))])
        .as('has_children'),
    )
    .where('a.organisation_id', '=', organisationId)
    .orderBy('a.depth');
}

/** A row of the session's chain read: a chain row, or (the organisation does not exist) its columns null; always the access and who the session names. */
export type SessionChainRow = { [K in keyof SettingsChainRow]: SettingsChainRow[K] | null } & {
  /** The session's user; null when the token names no live session (access/org-access.ts sessionOrgAccessRow). */
  actor_id: string | null;
};

interface SessionChainValues {
  token: string;
  organisationId: string;
  now: Date;
}

/**
 * The settings read of a console screen, whose session is read in the same statement (`config.sessionInStatement`): the
 * session, the access decision and the chain, one round trip. Built and compiled once (db/statement-shapes.ts), and on
 * PostgreSQL a prepared statement: planning the chain's statement cost PostgreSQL more than running it, and building it
 * with Kysely cost the server's CPU on every read (docs/performance.md, "Districts").
 */
const sessionChain = new StatementShapes<DB, null, SessionChainValues, SessionChainRow>(
  (db, _shape, slots) => sql<SessionChainRow>`
    WITH access AS MATERIALIZED (${sessionOrgAccessRow(db, slots.token, slots.organisationId, slots.now)})
    SELECT a.level AS access, a.actor_id, c.depth, c.id, c.name, c.settings, c.setting_policies, c.has_children
    FROM access AS a LEFT JOIN (${chainQuery(db, slots.organisationId)}) AS c ON true
    ORDER BY c.depth`,
  1,
);

/**
 * The organisation's chain and the session's access to it, in one statement: one row whose chain columns are null when
 * the organisation does not exist, else the chain nearest first, each row with the access and the session's user.
 */
export async function findSettingsChainForSession(db: Kysely<DB>, token: string, organisationId: string, now = new Date()): Promise<SessionChainRow[]> {
  return (await sessionChain.execute(db, 'chain', null, { token, organisationId, now })).rows;
}

/** The organisation's own policies, under a row lock (a policy change). */
export async function findPoliciesForUpdate(db: Db, organisationId: string): Promise<StoredSettingPolicies | undefined> {
  return (await db.selectFrom('organisations').select('setting_policies').where('id', '=', organisationId).forUpdate().executeTakeFirst())?.setting_policies;
}

export interface PoliciesMerge {
  /** Apps whose policy is set. */
  setApps: NonNullable<StoredSettingPolicies['apps']>;
  /** Apps returned to 'Let schools decide' (key removed). */
  unsetApps: string[];
  /** A policy to set, null to remove, undefined to leave. */
  imageSearch?: StoredSettingPolicies['imageSearch'] | null;
}

/** Merges a partial change into the organisation's policies in one statement, as mergeSettings does for settings. */
export async function mergePolicies(db: Db, organisationId: string, change: PoliciesMerge): Promise<StoredSettingPolicies | undefined> {
  const row = await db
    .updateTable('organisations')
    .set({ setting_policies: sql<StoredSettingPolicies>`${mergedJsonb('setting_policies', change)}`, updated_at: now() })
    .where('id', '=', organisationId)
    .returning('setting_policies')
    .executeTakeFirst();
  return row?.setting_policies;
}

/**
 * The jsonb column after a partial change, as one expression: apps = (apps || set) - unset; imageSearch set, removed
 * (null) or left (undefined). Settings and policies share the shape, so they share the merge.
 */
function mergedJsonb(column: 'settings' | 'setting_policies', change: { setApps: object; unsetApps: string[]; imageSearch?: unknown }) {
  const stored = sql.ref(column);
  const apps = sql`(coalesce(${stored}->'apps', '{}'::jsonb) || ${JSON.stringify(change.setApps)}::jsonb) - ${sql.val(change.unsetApps)}::text[]`;
  const withApps = sql`jsonb_set(${stored}, '{apps}', ${apps}, true)`;
  if (change.imageSearch === undefined) return withApps;
  if (change.imageSearch === null) return sql`(${withApps}) - 'imageSearch'`;
  return sql`(${withApps}) || ${JSON.stringify({ imageSearch: change.imageSearch })}::jsonb`;
}

export interface SettingsMerge {
  /** Apps to set to 1, -1 or 0. */
  setApps: Record<string, 1 | -1 | 0>;
  /** Apps to reset (key removed). */
  unsetApps: string[];
  /** A value to set, null to remove, undefined to leave. */
  imageSearch?: 'pixabay' | 'google' | null;
}

/**
 * Merges a partial change into the stored settings in one statement, so concurrent changes to
 * different apps never overwrite each other: apps = (apps || set) - unset; imageSearch set or removed.
 */
export async function mergeSettings(db: Db, organisationId: string, change: SettingsMerge): Promise<OrganisationSettings | undefined> {
  const row = await db
    .updateTable('organisations')
    .set({ settings: sql<OrganisationSettings>`${mergedJsonb('settings', change)}`, updated_at: now() })
    .where('id', '=', organisationId)
    .returning('settings')
    .executeTakeFirst();
  return row?.settings;
}

/** The member row of a user in an organisation (by user id, or by e-mail), if any. */
export async function findMemberOfUser(db: Db, organisationId: string, user: { userId: string; email: string | null }) {
  return db
    .selectFrom('members')
    .select(['id', 'user_id', 'is_student', 'revoked_at'])
    .where('organisation_id', '=', organisationId)
    .where((eb) => (user.email ? eb.or([eb('user_id', '=', user.userId), eb('email', '=', user.email.toLowerCase())]) : eb('user_id', '=', user.userId)))
    .orderBy('revoked_at', 'desc')
    .executeTakeFirst();
}
