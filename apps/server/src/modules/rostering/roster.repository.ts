import { sql, type Kysely, type Transaction } from 'kysely';
import type { RosterError } from '@quire/core';
import { anyOf, now } from '../../db/sql-helpers.js';
import type { DB } from '../../db/types.js';
import type { ExistingMember, ManagedMember, StagedPerson } from './roster-plan.js';

type Db = Kysely<DB> | Transaction<DB>;

/**
 * SQL for rostering: imports, their staged people and errors, the org links and the members an import manages. Every
 * query filters on the importing organisation (and member writes on the member's own organisation, which the links
 * keep to that organisation and the ones under it).
 */

/** Rows per INSERT when staging a file's errors: 7 parameters a row, far below PostgreSQL's 65,535. */
const STAGE_BATCH = 2000;
/** People per staging statement (one JSON parameter): about 2 MB of JSON at most, whatever the file's size. */
const STAGE_PEOPLE_BATCH = 10_000;

export interface ImportRow {
  id: string;
  organisation_id: string;
  status: string;
  file_name: string;
  version: string;
  mode: string;
  options: unknown;
  counts: unknown;
  preview: unknown;
  orgs: unknown;
  created_by_email: string;
  created_at: Date;
  applied_at: Date | null;
  done: number;
  total: number;
}

const importColumns = [
  'id', 'organisation_id', 'status', 'file_name', 'version', 'mode', 'options', 'counts', 'preview', 'orgs', 'created_by_email',
  'created_at', 'applied_at', 'done', 'total',
] as const;

export async function insertImport(db: Db, row: {
  id: string; organisationId: string; fileName: string; version: string; mode: string; options: unknown; orgs: unknown;
  createdByUserId: string | null; createdByEmail: string;
}): Promise<void> {
  await db.insertInto('roster_imports').values({
    id: row.id, organisation_id: row.organisationId, status: 'preview', file_name: row.fileName, version: row.version, mode: row.mode,
    options: JSON.stringify(row.options), counts: '{}', preview: '{}', orgs: JSON.stringify(row.orgs),
    created_by_user_id: row.createdByUserId, created_by_email: row.createdByEmail,
  }).execute();
}

/**
 * Stages a file's people. A statement carries up to STAGE_PEOPLE_BATCH of them as one JSON parameter read by
 * json_to_recordset: PostgreSQL unpacks the rows itself, so the statement's text and its parameter count stay the same
 * however many people it holds (a VALUES list of 2,000 rows was 24,000 parameters for the query builder and the driver
 * to build and send one by one).
 */
export async function insertPeople(db: Db, organisationId: string, importId: string, people: readonly StagedPerson[]): Promise<void> {
  for (let start = 0; start < people.length; start += STAGE_PEOPLE_BATCH) {
    const rows = people.slice(start, start + STAGE_PEOPLE_BATCH).map((p, i) => ({
      n: start + i, line: p.line, sourced_id: p.sourcedId, active: p.active, email: p.email, given_name: p.givenName, family_name: p.familyName,
      role: p.role, org_sourced_ids: p.orgSourcedIds, has_error: p.hasError,
    }));
    await sql`
      INSERT INTO roster_import_people (organisation_id, import_id, n, line, sourced_id, active, email, given_name, family_name, role, org_sourced_ids, has_error)
      SELECT ${organisationId}, ${importId}, p.n, p.line, p.sourced_id, p.active, p.email, p.given_name, p.family_name, p.role, p.org_sourced_ids, p.has_error
      FROM json_to_recordset(${JSON.stringify(rows)}::json) AS p(n integer, line integer, sourced_id text, active boolean, email text,
        given_name text, family_name text, role text, org_sourced_ids text[], has_error boolean)`.execute(db);
  }
}

export async function insertErrors(db: Db, organisationId: string, importId: string, errors: readonly RosterError[]): Promise<void> {
  for (let start = 0; start < errors.length; start += STAGE_BATCH) {
    const batch = errors.slice(start, start + STAGE_BATCH);
    await db.insertInto('roster_import_errors').values(batch.map((e, i) => ({
      organisation_id: organisationId, import_id: importId, n: start + i, file: e.file, line: e.line, column_name: e.column, reason: e.reason,
    }))).execute();
  }
}

export async function readPeople(db: Db, organisationId: string, importId: string): Promise<StagedPerson[]> {
  const rows = await db.selectFrom('roster_import_people').selectAll()
    .where('organisation_id', '=', organisationId).where('import_id', '=', importId).orderBy('n').execute();
  return rows.map((r) => ({
    line: r.line, sourcedId: r.sourced_id, active: r.active, email: r.email, givenName: r.given_name, familyName: r.family_name,
    role: r.role, orgSourcedIds: r.org_sourced_ids, hasError: r.has_error,
  }));
}

export async function readErrors(db: Db, organisationId: string, importId: string): Promise<RosterError[]> {
  const rows = await db.selectFrom('roster_import_errors').select(['file', 'line', 'column_name', 'reason'])
    .where('organisation_id', '=', organisationId).where('import_id', '=', importId).orderBy('n').execute();
  return rows.map((r) => ({ file: r.file, line: r.line, column: r.column_name, reason: r.reason }));
}

export async function deletePeople(db: Db, organisationId: string, importId: string): Promise<void> {
  await db.deleteFrom('roster_import_people').where('organisation_id', '=', organisationId).where('import_id', '=', importId).execute();
}

export async function findImport(db: Db, organisationId: string, importId: string): Promise<ImportRow | undefined> {
  return db.selectFrom('roster_imports').select(importColumns)
    .where('organisation_id', '=', organisationId).where('id', '=', importId).executeTakeFirst() as Promise<ImportRow | undefined>;
}

export async function listImports(db: Db, organisationId: string, limit: number): Promise<ImportRow[]> {
  return db.selectFrom('roster_imports').select(importColumns)
    .where('organisation_id', '=', organisationId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute() as Promise<ImportRow[]>;
}

/** Moves the import from one state to another; false when it was not in `from` (a second click, a race). */
export async function moveImport(db: Db, organisationId: string, importId: string, from: readonly string[], to: string, extra: { appliedAt?: boolean } = {}): Promise<boolean> {
  const rows = await db.updateTable('roster_imports')
    .set({ status: to, ...(extra.appliedAt ? { applied_at: now() } : {}) })
    .where('organisation_id', '=', organisationId).where('id', '=', importId).where('status', 'in', [...from])
    .returning('id').execute();
  return rows.length > 0;
}

export async function saveResult(db: Db, organisationId: string, importId: string, values: { counts?: unknown; preview?: unknown; done?: number; total?: number }): Promise<void> {
  await db.updateTable('roster_imports')
    .set({
      ...(values.counts !== undefined ? { counts: JSON.stringify(values.counts) } : {}),
      ...(values.preview !== undefined ? { preview: JSON.stringify(values.preview) } : {}),
      ...(values.done !== undefined ? { done: values.done } : {}),
      ...(values.total !== undefined ? { total: values.total } : {}),
    })
    .where('organisation_id', '=', organisationId).where('id', '=', importId).execute();
}

/** The organisation and every organisation under it, with their names. */
export async function treeOrganisations(db: Db, organisationId: string): Promise<Array<{ id: string; name: string }>> {
  return db.selectFrom('organisation_ancestors as a').innerJoin('organisations as o', 'o.id', 'a.organisation_id')
    .select(['o.id', 'o.name']).where('a.ancestor_id', '=', organisationId).orderBy('a.depth').orderBy('o.name').execute();
}

export async function readLinks(db: Db, organisationId: string): Promise<Map<string, string>> {
  const rows = await db.selectFrom('roster_org_links').select(['sourced_id', 'target_organisation_id']).where('organisation_id', '=', organisationId).execute();
  return new Map(rows.map((r) => [r.sourced_id, r.target_organisation_id]));
}

export async function replaceLinks(db: Db, organisationId: string, links: ReadonlyArray<{ sourcedId: string; organisationId: string }>): Promise<void> {
  await db.deleteFrom('roster_org_links').where('organisation_id', '=', organisationId).execute();
  if (links.length) {
    await db.insertInto('roster_org_links')
      .values(links.map((l) => ({ organisation_id: organisationId, sourced_id: l.sourcedId, target_organisation_id: l.organisationId }))).execute();
  }
}

/** The members this organisation's imports manage, with their members' current rows. */
export async function readManaged(db: Db, organisationId: string): Promise<Map<string, ManagedMember>> {
  const rows = await db.selectFrom('roster_members as r')
    .innerJoin('members as m', (join) => join.onRef('m.organisation_id', '=', 'r.member_organisation_id').onRef('m.id', '=', 'r.member_id'))
    .select(['r.sourced_id', 'r.member_id', 'r.member_organisation_id', 'r.role', 'r.console_admin', 'm.email', 'm.display_name', 'm.revoked_at'])
    .where('r.organisation_id', '=', organisationId).execute();
  return new Map(rows.map((r) => [r.sourced_id, {
    sourcedId: r.sourced_id, memberId: r.member_id, organisationId: r.member_organisation_id, email: r.email, displayName: r.display_name,
    role: r.role, revoked: r.revoked_at !== null, consoleAdmin: r.console_admin,
  }]));
}

/** Members of these organisations with these addresses, and why an import may not take one over. */
export async function findExisting(db: Db, organisationIds: readonly string[], emails: readonly string[]): Promise<ExistingMember[]> {
  if (organisationIds.length === 0 || emails.length === 0) return [];
  const rows = await db.selectFrom('members as m')
    .leftJoin('scim_users as s', (join) => join.onRef('s.organisation_id', '=', 'm.organisation_id').onRef('s.member_id', '=', 'm.id'))
    .leftJoin('roster_members as r', (join) => join.onRef('r.member_organisation_id', '=', 'm.organisation_id').onRef('r.member_id', '=', 'm.id'))
    .select(['m.id', 'm.organisation_id', 'm.email', 'm.revoked_at', 'm.is_student', 'm.is_provider_staff', 's.member_id as scim_id', 'r.sourced_id as roster_id'])
    .where(anyOf('m.organisation_id', organisationIds)).where(anyOf('m.email', emails)).execute();
  return rows.map((r) => ({
    id: r.id, organisationId: r.organisation_id, email: r.email, revoked: r.revoked_at !== null,
    blocked: r.is_student ? 'a student' : r.is_provider_staff ? 'a provider staff member' : r.scim_id ? 'a teacher an identity provider manages (SCIM)'
      : r.roster_id ? `the person ${r.roster_id} of the roster` : null,
  }));
}

/** New pending teachers (role -600, as an import makes them), in one statement; the rows as one JSON parameter. */
export async function insertMembers(db: Db, rows: ReadonlyArray<{ id: string; organisationId: string; email: string; displayName: string; licenseId: string | null }>): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((r) => ({ id: r.id, organisation_id: r.organisationId, email: r.email, display_name: r.displayName, license_id: r.licenseId }));
  await sql`
    INSERT INTO members (id, organisation_id, email, display_name, role, pending, license_id)
    SELECT v.id, v.organisation_id, v.email, v.display_name, -600, true, v.license_id
    FROM json_to_recordset(${JSON.stringify(values)}::json) AS v(id text, organisation_id text, email text, display_name text, license_id text)`.execute(db);
}

export interface MemberContact {
  organisationId: string;
  memberId: string;
  email: string;
  displayName: string;
}

/** New addresses and names for members, in one statement (the values as arrays: four parameters however many rows). */
export async function updateMemberContacts(db: Db, rows: readonly MemberContact[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    UPDATE members AS m SET email = v.email, display_name = v.display_name, updated_at = now()
    FROM unnest(${rows.map((r) => r.organisationId)}::text[], ${rows.map((r) => r.memberId)}::text[], ${rows.map((r) => r.email)}::text[],
      ${rows.map((r) => r.displayName)}::text[]) AS v(organisation_id, id, email, display_name)
    WHERE m.organisation_id = v.organisation_id AND m.id = v.id`.execute(db);
}

/** Who the import manages, in one statement (the rows as one JSON parameter): new sourcedIds added, known ones moved on. */
export async function upsertManaged(db: Db, rows: ReadonlyArray<{ organisationId: string; sourcedId: string; memberOrganisationId: string; memberId: string; role: string; consoleAdmin: boolean; importId: string }>): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((r) => ({
    organisation_id: r.organisationId, sourced_id: r.sourcedId, member_organisation_id: r.memberOrganisationId, member_id: r.memberId,
    role: r.role, console_admin: r.consoleAdmin, import_id: r.importId,
  }));
  await sql`
    INSERT INTO roster_members AS r (organisation_id, sourced_id, member_organisation_id, member_id, role, console_admin, import_id)
    SELECT v.organisation_id, v.sourced_id, v.member_organisation_id, v.member_id, v.role, v.console_admin, v.import_id
    FROM json_to_recordset(${JSON.stringify(values)}::json)
      AS v(organisation_id text, sourced_id text, member_organisation_id text, member_id text, role text, console_admin boolean, import_id text)
    ON CONFLICT (organisation_id, sourced_id) DO UPDATE SET member_organisation_id = excluded.member_organisation_id, member_id = excluded.member_id,
      role = excluded.role, console_admin = excluded.console_admin, import_id = excluded.import_id, updated_at = now()`.execute(db);
}

export async function setConsoleAdmin(db: Db, organisationId: string, sourcedId: string, consoleAdmin: boolean): Promise<void> {
  await db.updateTable('roster_members').set({ console_admin: consoleAdmin, updated_at: now() })
    .where('organisation_id', '=', organisationId).where('sourced_id', '=', sourcedId).execute();
}

/** Licences of these organisations (not applied to all), for the licence rule. */
export async function licencesOf(db: Db, organisationIds: readonly string[]) {
  if (organisationIds.length === 0) return [];
  return db.selectFrom('licenses').select(['id', 'organisation_id', 'name']).where(anyOf('organisation_id', organisationIds))
    .where('apply_to_all', '=', false).orderBy('organisation_id').orderBy('id').execute();
}
