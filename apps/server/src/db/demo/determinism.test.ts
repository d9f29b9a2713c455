import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/helper.js';
import type { Database } from '../client.js';
import { seedDemoDistrict } from './demo-district.js';
import { SeedConflictError, generatedOrganisationId, seedGeneratedOrganisation } from './generated-organisation.js';

const TABLES = [
  '"user"', 'account', 'organisations', 'licenses', 'members', 'admins', 'libraries', 'library_memberships', 'books',
  'lti_credentials', 'analytics_events', 'analytics_daily', 'portfolio_exports', 'students', 'portfolio_items',
];

let database: Database;

beforeAll(async () => {
  ({ database } = await openTestDatabase());
});
afterAll(() => database.close());

async function reset(): Promise<void> {
  await sql.raw(`TRUNCATE ${TABLES.join(', ')} RESTART IDENTITY CASCADE`).execute(database.db);
}

/** Every row of every seeded table, as sorted JSON text. */
async function snapshot(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of TABLES) {
    const { rows } = await sql<{ row: string }>`SELECT to_jsonb(t)::text AS row FROM ${sql.raw(table)} AS t ORDER BY 1`.execute(database.db);
    out[table] = rows.map((r) => r.row);
  }
  return out;
}

/** Whether the database holds one demo district and nothing added since (any seed). */
let demoDistrictOnly = false;

async function seed(seedValue: number, reference: string): Promise<Record<string, string[]>> {
  demoDistrictOnly = false;
  await reset();
  await database.db.transaction().execute((trx) =>
    seedDemoDistrict(trx, { teachers: 120, seed: seedValue, adminEmail: 'admin@demo.quire.school', passwordHash: 'scrypt$fixed', reference: new Date(reference) }));
  demoDistrictOnly = true;
  return snapshot();
}

describe('the demo generator is deterministic', () => {
  let first: Record<string, string[]>;

  beforeAll(async () => {
    first = await seed(7, '2025-03-10T08:00:00Z');
  });

  it('gives identical rows, ids included, for the same seed on the same day', async () => {
    const second = await seed(7, '2025-03-10T22:30:00Z');
    for (const table of TABLES) expect(second[table], table).toEqual(first[table]);
    expect(first.members?.length).toBeGreaterThan(120);
    expect(first.analytics_events?.length).toBeGreaterThan(1000);
  });

  it('gives different rows for a different seed', async () => {
    const other = await seed(8, '2025-03-10T08:00:00Z');
    const ids = (rows: string[] | undefined) => new Set((rows ?? []).map((r) => (JSON.parse(r) as { id: string }).id));
    const firstIds = ids(first.members);
    const shared = [...ids(other.members)].filter((id) => firstIds.has(id));
    expect(shared).toEqual([]);
    expect(other.books).not.toEqual(first.books);
    // The same schools, with other people in them.
    expect(other.organisations?.map((r) => (JSON.parse(r) as { name: string }).name).sort())
      .toEqual(first.organisations?.map((r) => (JSON.parse(r) as { name: string }).name).sort());
  });

  it('ends the analytics history on the day before the reference day', () => {
    // Session history only: books-created follows the books, which go back further. Read from the first seed's rows.
    const days = (first.analytics_daily ?? [])
      .map((r) => JSON.parse(r) as { metric: string; day: string })
      .filter((r) => r.metric === 'sessions')
      .map((r) => r.day)
      .sort();
    expect({ first: days[0], last: days.at(-1) }).toEqual({ first: '2023-09-09', last: '2025-03-09' });
  });
});

describe('a generated organisation', () => {
  it('is added with the id of its seed, with the demo admin as its admin, and refuses the same seed twice', async () => {
    // A demo district's data is all this needs (its admin among it): the one the tests above left, when they ran,
    // saves building another (a demo build is most of this file's time).
    if (!demoDistrictOnly) await seed(7, '2025-03-10T08:00:00Z');
    demoDistrictOnly = false;
    const added = await database.db.transaction().execute((trx) =>
      seedGeneratedOrganisation(trx, { seed: 5, teachers: 50, adminEmail: 'Admin@demo.quire.school' }));
    expect(added.id).toBe(generatedOrganisationId(5));
    expect(added.members).toBe(50);
    const admins = await database.db.selectFrom('admins').select('email').where('organisation_id', '=', added.id).execute();
    expect(admins.map((a) => a.email)).toContain('admin@demo.quire.school');
    await expect(database.db.transaction().execute((trx) => seedGeneratedOrganisation(trx, { seed: 5, teachers: 50 })))
      .rejects.toThrow(SeedConflictError);
    expect(await database.db.selectFrom('members').select('id').where('organisation_id', '=', added.id).execute()).toHaveLength(50);
  });
});
