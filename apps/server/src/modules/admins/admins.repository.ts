import { sql, type Kysely, type Transaction } from 'kysely';
import { anyOf } from '../../db/sql-helpers.js';
import type { DB } from '../../db/types.js';

/**
 * SQL for an organisation's admins list. Every query filters on organisation_id: the list holds the organisation's own
 * admins, those of every organisation above it (a district's admins are its schools' admins too, docs/districts.md), and
 * those of every organisation under it (a district's page lists each school's admins).
 */

type Db = Kysely<DB> | Transaction<DB>;

export type AdminSortKey = 'email' | 'name';

export interface AdminFilter {
  organisationId: string;
  /** Case-insensitive substring of the e-mail or name. */
  search?: string;
}

export interface AdminRow {
  email: string;
  organisation_id: string;
  organisation_name: string;
  /** Listed at an organisation above this one: an admin here through it, removed only there. */
  inherited: boolean;
  user_id: string | null;
  member_id: string | null;
  display_name: string | null;
  two_step: 'on' | 'off' | 'passkey';
}

function likePattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
}

/** The admin's identity user: the linked one, else the one with the admin's e-mail (signed up after being added). */
const userId = sql<string | null>`coalesce(ul.id, ue.id)`;
/** The admin's name: their member row's, else their identity user's. */
const displayName = sql<string | null>`coalesce(nullif(m.display_name, ''), nullif(ul.name, ''), nullif(ue.name, ''))`;

/** The admin account's 2-step verification: a passkey, an authenticator app alone, or none; never the secret itself. */
const twoStep = sql<'on' | 'off' | 'passkey'>`CASE
  WHEN EXISTS (SELECT 1 FROM two_step_passkeys p WHERE p.user_id = coalesce(ul.id, ue.id)) THEN 'passkey'
  WHEN EXISTS (SELECT 1 FROM two_step_factors f WHERE f.user_id = coalesce(ul.id, ue.id) AND f.confirmed_at IS NOT NULL) THEN 'on'
  ELSE 'off' END`;

function filtered(db: Db, filter: AdminFilter) {
  let query = db
    .selectFrom('admins as a')
    .innerJoin('organisations as o', 'o.id', 'a.organisation_id')
    .leftJoin('members as m', (join) => join.onRef('m.organisation_id', '=', 'a.organisation_id').onRef('m.email', '=', 'a.email'))
    .leftJoin('user as ul', 'ul.id', 'a.user_id')
    // User e-mails are unique, so this finds at most one.
    .leftJoin('user as ue', (join) => join.onRef('ue.email', '=', 'a.email').on('a.user_id', 'is', null))
    .where('a.organisation_id', 'in', (eb) =>
      eb
        .selectFrom('organisation_ancestors as up')
        .select('up.ancestor_id as id')
        .where('up.organisation_id', '=', filter.organisationId)
        .union(eb.selectFrom('organisation_ancestors as down').select('down.organisation_id as id').where('down.ancestor_id', '=', filter.organisationId)),
    );
  const search = filter.search?.trim();
  if (search) {
    const pattern = likePattern(search);
    query = query.where((eb) => eb.or([eb('a.email', 'like', pattern), eb(sql<string>`lower(${displayName})`, 'like', pattern)]));
  }
  return query;
}

export async function listAdmins(
  db: Db,
  filter: AdminFilter,
  sort: { key: AdminSortKey; dir: 'asc' | 'desc' },
  page: { limit: number; offset: number },
): Promise<AdminRow[]> {
  const dir = sql.raw(sort.dir === 'desc' ? 'DESC' : 'ASC');
  // The same e-mail may be an admin of the district and of a school: the organisation keeps the order total.
  const order =
    sort.key === 'name'
      ? sql`lower(coalesce(${displayName}, a.email)) ${dir}, a.email ${dir}, o.name ${dir}, a.organisation_id ${dir}`
      : sql`a.email ${dir}, o.name ${dir}, a.organisation_id ${dir}`;
  const inherited = sql<boolean>`EXISTS (SELECT 1 FROM organisation_ancestors AS x
    WHERE x.organisation_id = ${filter.organisationId} AND x.ancestor_id = a.organisation_id AND x.depth > 0)`;
  return filtered(db, filter)
    .select([
      'a.email', 'a.organisation_id', 'o.name as organisation_name', inherited.as('inherited'), userId.as('user_id'),
      'm.id as member_id', displayName.as('display_name'), twoStep.as('two_step'),
    ])
    .orderBy(order)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countAdmins(db: Db, filter: AdminFilter): Promise<number> {
  const row = await filtered(db, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Adds admins (linked to an identity user with the same e-mail); e-mails already admins are skipped. Returns those added. */
export async function insertAdmins(db: Db, organisationId: string, emails: readonly string[]): Promise<string[]> {
  if (emails.length === 0) return [];
  const result = await sql<{ email: string }>`
    INSERT INTO admins (organisation_id, email, user_id)
    SELECT ${organisationId}, t.email, (SELECT u.id FROM "user" u WHERE u.email = t.email)
    FROM unnest(${[...emails]}::text[]) AS t(email)
    ON CONFLICT (organisation_id, email) DO NOTHING
    RETURNING email`.execute(db);
  return result.rows.map((r) => r.email);
}

/** Every admin of the organisation, locked until the transaction ends (so two removals cannot both pass the last-admin check). */
export async function lockAdmins(db: Db, organisationId: string): Promise<string[]> {
  const rows = await db.selectFrom('admins').select('email').where('organisation_id', '=', organisationId).orderBy('email').forUpdate().execute();
  return rows.map((r) => r.email);
}

export async function deleteAdmins(db: Db, organisationId: string, emails: readonly string[]): Promise<string[]> {
  if (emails.length === 0) return [];
  const rows = await db
    .deleteFrom('admins')
    .where('organisation_id', '=', organisationId)
    .where(anyOf('email', emails))
    .returning('email')
    .execute();
  return rows.map((r) => r.email).sort();
}

/**
 * The organisations below `organisationId` (a district's schools), each with the admins it has from anywhere but
 * `organisationId`: its own and those of every other organisation above it.
 */
export async function listBelowWithOtherAdmins(db: Db, organisationId: string): Promise<Array<{ id: string; name: string; emails: string[] }>> {
  const result = await sql<{ id: string; name: string; emails: string[] | null }>`
    SELECT o.id, o.name, array_remove(array_agg(ad.email ORDER BY ad.email), NULL) AS emails
    FROM organisation_ancestors below
    JOIN organisations o ON o.id = below.organisation_id
    LEFT JOIN organisation_ancestors up ON up.organisation_id = o.id AND up.ancestor_id <> ${organisationId}
    LEFT JOIN admins ad ON ad.organisation_id = up.ancestor_id
    WHERE below.ancestor_id = ${organisationId} AND below.depth > 0
    GROUP BY o.id, o.name
    ORDER BY o.name, o.id`.execute(db);
  return result.rows.map((r) => ({ id: r.id, name: r.name, emails: r.emails ?? [] }));
}

/** The organisation's name, for a refusal that names it. */
export async function organisationName(db: Db, organisationId: string): Promise<string | undefined> {
  const row = await db.selectFrom('organisations').select('name').where('id', '=', organisationId).executeTakeFirst();
  return row?.name;
}
