import { ROLE_LIBRARY_MANAGER, type OrgAccessLevel } from '@quire/core';
import { sql, type Kysely, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import type { DB, OrganisationsTable } from '../../db/types.js';
import { appError, type AppError } from '../../errors.js';
import type { Actor } from './actor.js';
import { liveSessionUser, twoStepBlock } from './session-user.js';

type Db = Kysely<DB> | Transaction<DB>;

/**
 * The one place that decides who may act in an organisation (docs/security.md): an admin is listed in the
 * admins table, by e-mail or by identity user, for the organisation or for one above it (a district's admin is an
 * admin of every school under it: docs/districts.md); a library manager is a role-400 member, not removed, of an
 * organisation with orgLibraries on. Admin wins over library manager. Access follows the e-mail address, so
 * an actor whose address is not verified has none. The ID token's bc_orgs, the picker, every service's check
 * and the console's useOrgAccess all come from here.
 */

/** Someone who may be listed as an admin or a member: by identity user, by e-mail, or both. */
export interface Person {
  userId: string | null;
  email: string | null;
}

/** The columns of the organisation a request reads once, with its access (requireOrgAccess). */
export type OrganisationRecord = Pick<
  Selectable<OrganisationsTable>,
  'id' | 'name' | 'is_domain' | 'org_libraries' | 'student_portfolios' | 'visit_libraries' | 'settings'
>;

export interface OrgAccess {
  level: OrgAccessLevel;
  organisation: OrganisationRecord;
}

/** 'read': admins and library managers; 'admin': admins only (every change). */
export type OrgNeed = 'read' | 'admin';

/** A person as known to the server (values), or as columns of the statement that reads their session. */
type PersonRef = Person | { userId: RawBuilder<string>; email: RawBuilder<string> };

/** The row names the person: its e-mail (stored lower-case) or its identity user. */
function isPerson(table: 'admins' | 'members', person: PersonRef): RawBuilder<boolean> {
  const parts = [];
  if (typeof person.email === 'string') parts.push(sql`${sql.ref(`${table}.email`)} = ${person.email.trim().toLowerCase()}`);
  else if (person.email) parts.push(sql`${sql.ref(`${table}.email`)} = lower(btrim(${person.email}))`);
  if (person.userId) parts.push(sql`${sql.ref(`${table}.user_id`)} = ${person.userId}`);
  return parts.length > 0 ? sql<boolean>`(${sql.join(parts, sql` OR `)})` : sql<boolean>`false`;
}

/**
 * Organisations the person administers: those where they are listed as an admin, and every organisation under
 * one of those (an admin of a district is an admin of its schools), through the tree's closure.
 */
function adminRows(db: Db, person: PersonRef) {
  return db
    .selectFrom('admins')
    .innerJoin('organisation_ancestors as under', 'under.ancestor_id', 'admins.organisation_id')
    .select('under.organisation_id')
    .where(isPerson('admins', person));
}

/** Organisations where the person manages libraries. */
function managerRows(db: Db, person: PersonRef) {
  return db
    .selectFrom('members')
    .innerJoin('organisations', 'organisations.id', 'members.organisation_id')
    .select('members.organisation_id')
    .where('organisations.org_libraries', '=', true)
    .where('members.role', '=', ROLE_LIBRARY_MANAGER)
    .where('members.revoked_at', 'is', null)
    .where(isPerson('members', person));
}

const personOf = (actor: Actor): Person => ({ userId: actor.userId, email: actor.email });

/** True when the person is listed as an admin: of the organisation, or of any organisation when none is named. */
export async function isListedAdmin(db: Db, person: Person, organisationId?: string): Promise<boolean> {
  let query = adminRows(db, person);
  if (organisationId !== undefined) query = query.where('under.organisation_id', '=', organisationId);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

/**
 * Organisations where the person is listed as an admin themselves, not those below them (a district's log already
 * holds its schools' entries): where a sign-in is recorded.
 */
export async function listedAdminOrganisations(db: Db, person: Person): Promise<string[]> {
  const rows = await db.selectFrom('admins').select('organisation_id').distinct().where(isPerson('admins', person)).orderBy('organisation_id').execute();
  return rows.map((r) => r.organisation_id);
}

/** Every organisation the person may act in, with the access level there (the ID token's bc_orgs). */
export async function organisationRoles(db: Db, person: Person): Promise<Record<string, OrgAccessLevel>> {
  const [managed, administered] = await Promise.all([managerRows(db, person).execute(), adminRows(db, person).execute()]);
  const roles: Record<string, OrgAccessLevel> = {};
  for (const row of managed) roles[row.organisation_id] = 'library-manager';
  for (const row of administered) roles[row.organisation_id] = 'admin';
  return roles;
}

/** The organisations the actor may open, by name then id (getOrganisations). Nothing for an unverified address. */
export async function listAccessibleOrganisations(db: Db, actor: Actor): Promise<Array<{ id: string; name: string; parentId: string | null }>> {
  if (!actor.emailVerified) return [];
  const person = personOf(actor);
  return db
    .selectFrom('organisations as o')
    .select(['o.id', 'o.name', 'o.parent_id as parentId'])
    .where((eb) => eb.or([eb('o.id', 'in', adminRows(db, person)), eb('o.id', 'in', managerRows(db, person))]))
    .orderBy('o.name')
    .orderBy('o.id')
    .execute();
}

/**
 * The actor's access level as one SQL expression ('admin', 'library-manager' or NULL), built from the same
 * rule as requireOrgAccess, so a hot read decides access in the same statement as its data (the Teachers page).
 */
export function orgAccessLevel(db: Db, actor: Actor, organisationId: string): RawBuilder<OrgAccessLevel | null> {
  if (!actor.emailVerified) return sql<null>`NULL::text`;
  return accessLevelOf(db, personOf(actor), organisationId);
}

function accessLevelOf(db: Db, person: PersonRef, organisationId: string): RawBuilder<OrgAccessLevel | null> {
  const admin = adminRows(db, person).where('under.organisation_id', '=', organisationId);
  const manager = managerRows(db, person).where('members.organisation_id', '=', organisationId);
  return sql<OrgAccessLevel | null>`(CASE WHEN EXISTS (${admin}) THEN 'admin' WHEN EXISTS (${manager}) THEN 'library-manager' END)`;
}

/** One row for a statement's `access` CTE: the caller's access level in the organisation, and who the caller is. */
export interface AccessRow<Level extends string = OrgAccessLevel> {
  level: Level | null;
  /** The caller's identity user; null when a session read in the statement named nobody (no such session, or expired). */
  actor_id: string | null;
}

/** An access row read on its own (a request that reads its data in later statements). */
export async function readAccessRow(db: Db, row: RawBuilder<AccessRow>): Promise<AccessRow> {
  const { rows } = await row.execute(db);
  return rows[0] ?? { level: null, actor_id: null };
}

/** The access row of an actor the request already knows (orgAccessLevel, and their id). */
export function orgAccessRow(db: Db, actor: Actor, organisationId: string): RawBuilder<AccessRow> {
  return sql<AccessRow>`SELECT ${orgAccessLevel(db, actor, organisationId)} AS level, ${actor.userId}::text AS actor_id`;
}

/**
 * The access row of the session behind a signed cookie's token, read in the same statement (one round trip for the
 * session, the access and the data, the Teachers page's: docs/performance-log.md): the live session's user as the actor
 * hook reads it (session-user.ts), then the same rule as orgAccessLevel on that user's id and e-mail. Always one
 * row: actor_id null when the token names no live session or one still waiting for its second step, level null while
 * the person must first turn 2-step verification on.
 */
export function sessionOrgAccessRow(db: Db, token: string, organisationId: string, now: Date = new Date()): RawBuilder<AccessRow> {
  const level = accessLevelOf(db, { userId: sql<string>`u.id`, email: sql<string>`u.email` }, organisationId);
  return sql<AccessRow>`
    SELECT CASE WHEN u."emailVerified" AND u."twoStep" IS NULL THEN ${level} END AS level,
      CASE WHEN u."twoStep" IS DISTINCT FROM 'second-step' THEN u.id END AS actor_id
    FROM (SELECT 1) AS one LEFT JOIN (${liveSessionUser(db, token, now)}) AS u ON true`;
}

/**
 * The access level in the organisation of the user of a live session, found by the session's id (what a signed
 * link carries; never its token), in one statement over two primary keys and the access rule: null when the
 * session has ended (sign-out, expiry, a password reset) or, with `userId`, belongs to someone else.
 */
export async function liveSessionAccessLevel(
  db: Db,
  sessionId: string,
  organisationId: string,
  userId?: string,
  now: Date = new Date(),
): Promise<OrgAccessLevel | null> {
  const level = accessLevelOf(db, { userId: sql<string>`u.id`, email: sql<string>`u.email` }, organisationId);
  const { rows } = await sql<{ level: OrgAccessLevel | null }>`
    SELECT CASE WHEN u."emailVerified" AND ${twoStepBlock()} IS NULL THEN ${level} END AS level
    FROM session s JOIN "user" u ON u.id = s."userId"
    WHERE s.id = ${sessionId} AND s."expiresAt" > ${now}${userId === undefined ? sql`` : sql` AND s."userId" = ${userId}`}`.execute(db);
  return rows[0]?.level ?? null;
}

/** The refusal of an actor without access to the organisation (403). */
export function organisationForbidden(): AppError {
  return appError('organisation_forbidden');
}

/**
 * The organisation and the actor's access to it, in one query: undefined when the organisation does not
 * exist, level null when the actor may not act in it.
 */
export async function findOrgAccess(
  db: Db,
  actor: Actor,
  organisationId: string,
): Promise<{ level: OrgAccessLevel | null; organisation: OrganisationRecord } | undefined> {
  // Access follows the e-mail address: an unverified one names nobody.
  const person: Person = actor.emailVerified ? personOf(actor) : { userId: null, email: null };
  const row = await db
    .selectFrom('organisations')
    .select(['id', 'name', 'is_domain', 'org_libraries', 'student_portfolios', 'visit_libraries', 'settings'])
    .select((eb) => [
      eb.exists(adminRows(db, person).where('under.organisation_id', '=', organisationId)).as('is_admin'),
      eb.exists(managerRows(db, person).where('members.organisation_id', '=', organisationId)).as('is_manager'),
    ])
    .where('id', '=', organisationId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { is_admin: isAdmin, is_manager: isManager, ...organisation } = row;
  return { level: isAdmin ? 'admin' : isManager ? 'library-manager' : null, organisation };
}

export interface OrgAccessOptions {
  /** 'not-found': an organisation that does not exist answers 404; default 403, so ids are never confirmed. */
  missing?: 'not-found' | 'forbidden';
  /** The refusal when the actor has no access (default 403 organisation_forbidden). */
  refusal?: () => AppError;
}

/**
 * Every organisation-scoped request starts here, once: the actor's access level and the organisation's row
 * (name, flags, settings), or the refusal. 'admin' refuses library managers with 403 admin_required.
 */
export async function requireOrgAccess(
  db: Db,
  actor: Actor,
  organisationId: string,
  need: OrgNeed,
  options: OrgAccessOptions = {},
): Promise<OrgAccess> {
  const refusal = options.refusal ?? organisationForbidden;
  const found = await findOrgAccess(db, actor, organisationId);
  if (!found) throw options.missing === 'not-found' ? appError('organisation_not_found') : refusal();
  if (!found.level) throw refusal();
  if (need === 'admin' && found.level !== 'admin') throw appError('admin_required');
  return { level: found.level, organisation: found.organisation };
}
