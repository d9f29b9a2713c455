import { sql, type Insertable, type Kysely } from 'kysely';
import type { AccountTable, AdminsTable, DB, LicensesTable, LtiCredentialsTable, OrganisationsTable, PortfolioItemsTable, StudentsTable, UserTable } from '../types.js';
import type { Cell, SqlType } from './columns.js';

/** Any column buffer (see columns.ts). */
export interface ColumnRows {
  table: string;
  types: Record<string, SqlType>;
  columns: Record<string, Cell[]>;
  length: number;
}

/** Rows per INSERT … SELECT FROM unnest(…): large enough to be fast, small enough to keep parameter strings modest. */
const INSERT_BATCH = 20_000;

/** Inserts a column buffer in batches, one statement per batch, one array parameter per column. */
export async function insertColumns(db: Kysely<DB>, rows: ColumnRows, batch = INSERT_BATCH): Promise<void> {
  const keys = Object.keys(rows.types);
  const columnList = sql.join(keys.map((k) => sql.ref(k)));
  for (let start = 0; start < rows.length; start += batch) {
    const arrays = keys.map((k) => {
      const values: Cell[] = (rows.columns[k] ?? []).slice(start, start + batch);
      return sql`${values}::${sql.raw(rows.types[k] ?? 'text')}[]`;
    });
    await sql`INSERT INTO ${sql.table(rows.table)} (${columnList}) SELECT * FROM unnest(${sql.join(arrays)})`.execute(db);
  }
}

/**
 * Inserts several column buffers in ONE statement (data-modifying CTEs), so a whole chunk of teachers
 * costs one round trip and the generator can build the next chunk while the server works. Foreign
 * keys are checked at the end of the statement, so parents and children may arrive together.
 */
export async function insertColumnsTogether(db: Kysely<DB>, tables: ColumnRows[]): Promise<void> {
  const parts = tables.filter((t) => t.length > 0).map((rows) => {
    const keys = Object.keys(rows.types);
    const arrays = keys.map((k) => sql`${rows.columns[k] ?? []}::${sql.raw(rows.types[k] ?? 'text')}[]`);
    return sql`INSERT INTO ${sql.table(rows.table)} (${sql.join(keys.map((k) => sql.ref(k)))}) SELECT * FROM unnest(${sql.join(arrays)})`;
  });
  const last = parts.pop();
  if (!last) return;
  const ctes = parts.map((part, i) => sql`${sql.raw(`i${i}`)} AS (${part})`);
  await (ctes.length ? sql`WITH ${sql.join(ctes)} ${last}` : last).execute(db);
}

export async function hasOrganisations(db: Kysely<DB>): Promise<boolean> {
  const { rows } = await sql<{ present: boolean }>`SELECT EXISTS (SELECT 1 FROM organisations) AS present`.execute(db);
  return rows[0]?.present === true;
}

export async function organisationExists(db: Kysely<DB>, id: string): Promise<boolean> {
  const row = await db.selectFrom('organisations').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

export async function insertOrganisation(db: Kysely<DB>, row: Insertable<OrganisationsTable>): Promise<void> {
  await db.insertInto('organisations').values(row).execute();
}

export async function insertLicenses(db: Kysely<DB>, rows: Insertable<LicensesTable>[]): Promise<void> {
  if (rows.length) await db.insertInto('licenses').values(rows).execute();
}

/** Active teachers of the organisation without a licence (not students, not provider staff), the first `limit` by e-mail. */
export async function teachersWithoutLicense(db: Kysely<DB>, organisationId: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('members')
    .select('id')
    .where('organisation_id', '=', organisationId)
    .where('license_id', 'is', null)
    .where('revoked_at', 'is', null)
    .where('is_student', '=', false)
    .where('is_provider_staff', '=', false)
    .orderBy('email')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export async function giveLicense(db: Kysely<DB>, organisationId: string, memberIds: readonly string[], licenseId: string): Promise<void> {
  if (memberIds.length) await db.updateTable('members').set({ license_id: licenseId }).where('organisation_id', '=', organisationId).where('id', 'in', memberIds).execute();
}

export async function insertAdmins(db: Kysely<DB>, rows: Insertable<AdminsTable>[]): Promise<void> {
  if (rows.length) await db.insertInto('admins').values(rows).execute();
}

export async function insertLtiCredentials(db: Kysely<DB>, row: Insertable<LtiCredentialsTable>): Promise<void> {
  await db.insertInto('lti_credentials').values(row).execute();
}

export async function insertPortfolios(db: Kysely<DB>, rows: { students: Insertable<StudentsTable>[]; items: Insertable<PortfolioItemsTable>[] }): Promise<void> {
  if (rows.students.length) await db.insertInto('students').values(rows.students).execute();
  if (rows.items.length) await db.insertInto('portfolio_items').values(rows.items).execute();
}

export async function insertUsers(db: Kysely<DB>, rows: Insertable<UserTable>[]): Promise<void> {
  if (rows.length) await db.insertInto('user').values(rows).execute();
}

export async function insertAccounts(db: Kysely<DB>, rows: Insertable<AccountTable>[]): Promise<void> {
  if (rows.length) await db.insertInto('account').values(rows).execute();
}

/** Active members per licence of one organisation: the licence's "allocated". */
export async function allocatedByLicense(db: Kysely<DB>, organisationId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('members')
    .select(['license_id', (eb) => eb.fn.countAll<number>().as('allocated')])
    .where('organisation_id', '=', organisationId)
    .where('license_id', 'is not', null)
    .where('revoked_at', 'is', null)
    .groupBy('license_id')
    .execute();
  return new Map(rows.map((r) => [r.license_id as string, Number(r.allocated)]));
}

export async function setLicenseQuantity(db: Kysely<DB>, organisationId: string, licenseId: string, quantity: number): Promise<void> {
  await db.updateTable('licenses').set({ quantity }).where('organisation_id', '=', organisationId).where('id', '=', licenseId).execute();
}

/**
 * Rebuilds the daily rollups of one organisation from its raw session events (UTC days): the same
 * numbers the analytics service would compute, so charts and the raw events always agree.
 */
export async function rollUpAnalytics(db: Kysely<DB>, organisationId: string): Promise<void> {
  // books-created is kept by triggers on books as the books are written; everything else is rebuilt here.
  await db.deleteFrom('analytics_daily').where('organisation_id', '=', organisationId).where('metric', '<>', 'books-created').execute();
  const day = sql`(occurred_at AT TIME ZONE 'UTC')::date`;
  const student = sql`user_kind = 'student'`;
  const teacher = sql`user_kind = 'teacher'`;
  const rollup = (metric: string, name: ReturnType<typeof sql> | null, measure: 'count' | 'duration', where = sql`true`) => {
    const grouped = name !== null;
    const value = (filter: ReturnType<typeof sql>) =>
      measure === 'count' ? sql`count(*) FILTER (WHERE ${filter})` : sql`coalesce(sum(duration_seconds) FILTER (WHERE ${filter}), 0)`;
    return sql`
      INSERT INTO analytics_daily (organisation_id, metric, day, name, students, teachers, total)
      SELECT organisation_id, ${metric}::text, ${day}, ${name ?? sql`''`}, ${value(student)}, ${value(teacher)}, ${value(sql`true`)}
      FROM analytics_events
      WHERE organisation_id = ${organisationId} AND ${where}
      GROUP BY organisation_id, ${day}${grouped ? sql`, ${name}` : sql``}`.execute(db);
  };
  await rollup('sessions', null, 'count');
  await rollup('sessions-duration', null, 'duration');
  await rollup('sessions-by-os', sql`os`, 'count');
  await rollup('sessions-by-provider', sql`provider`, 'count');
  await rollup('email-domains', sql`email_domain`, 'count', sql`email_domain IS NOT NULL`);
  // The users seen and the day each was first seen: the students count (docs/analytics.md).
  await db.deleteFrom('analytics_users').where('organisation_id', '=', organisationId).execute();
  await sql`
    INSERT INTO analytics_users (organisation_id, user_kind, user_id, first_seen_at)
    SELECT organisation_id, user_kind, user_id, min(occurred_at) FROM analytics_events
    WHERE organisation_id = ${organisationId} AND user_id IS NOT NULL
    GROUP BY organisation_id, user_kind, user_id`.execute(db);
  await sql`
    INSERT INTO analytics_daily (organisation_id, metric, day, name, students, teachers, total)
    SELECT organisation_id, 'users-first-seen', (first_seen_at AT TIME ZONE 'UTC')::date, '',
           count(*) FILTER (WHERE user_kind = 'student'), count(*) FILTER (WHERE user_kind = 'teacher'), count(*)
    FROM analytics_users WHERE organisation_id = ${organisationId}
    GROUP BY organisation_id, (first_seen_at AT TIME ZONE 'UTC')::date`.execute(db);
}

export async function findUserIdByEmail(db: Kysely<DB>, email: string): Promise<string | null> {
  const row = await db.selectFrom('user').select('id').where('email', '=', email.toLowerCase()).executeTakeFirst();
  return row?.id ?? null;
}
