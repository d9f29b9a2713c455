import { sql } from 'kysely';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { useTestDatabase } from './helper.js';
import { NOT_DISTRIBUTED, PARTITIONS, partitionTenantTables, type PartitionedSchema } from './partitioned-schema.js';

/**
 * The keys of tenant tables that do not include `organisation_id`, and why appending it keeps their meaning (the
 * conversion appends it; docs/scale-out.md). A new key unique across organisations must be added here with its reason,
 * or the table classified (NOT_DISTRIBUTED in ./partitioned-schema.ts).
 */
const REVIEWED_EXTENSIONS: Readonly<Record<string, string>> = {
  'analytics_events: PRIMARY KEY (id)': 'a bigserial: unique by construction',
  'audit_events: PRIMARY KEY (id)': 'a bigserial: unique by construction',
  'books: PRIMARY KEY (id)': 'a random UUID: unique by construction',
  'libraries: PRIMARY KEY (id)': 'a random UUID; (organisation_id, id) is a key beside it',
  'licenses: PRIMARY KEY (id)': 'a random UUID; (organisation_id, id) is a key beside it',
  'members: PRIMARY KEY (id)': 'a random UUID; (organisation_id, id) is a key beside it',
  'portfolio_exports: PRIMARY KEY (id)': 'a random UUID; (organisation_id, id) is a key beside it',
  'portfolio_items: PRIMARY KEY (id)': 'a random UUID: unique by construction',
  'students: PRIMARY KEY (id)': 'a random UUID; (organisation_id, id) is a key beside it',
  'roster_members: UNIQUE INDEX roster_members_member_idx (member_organisation_id, member_id)':
    'NOT the same rule: a member is managed by one sourcedId across its tree; partitioned by organisation it can only be checked per importing organisation (on Citus by tree root it is kept whole)',
};

// Converting takes ~2 s on PostgreSQL and ~11 s on PGlite: CI's PostgreSQL pass runs it, its PGlite pass does not.
describe.skipIf(!process.env.TEST_DATABASE_URL)('the partitioned-schema mode', () => {
  let database: Database;
  let schema: PartitionedSchema;
  useTestDatabase((opened) => (database = opened));
  beforeAll(async () => {
    // In the mode the template is partitioned already (./global-setup.ts); otherwise this file's own copy is converted.
    schema = inject('partitionedSchema') ?? (await partitionTenantTables(database.db));
  });

  it('partitions every tenant table by hash of organisation_id, except the reference and local tables', async () => {
    const { rows } = await sql<{ table: string; key: string; partitions: number }>`
      SELECT c.relname AS table, pg_get_partkeydef(c.oid) AS key,
        (SELECT count(*)::int FROM pg_inherits i WHERE i.inhparent = c.oid) AS partitions
      FROM pg_partitioned_table p JOIN pg_class c ON c.oid = p.partrelid
      WHERE c.relnamespace = 'public'::regnamespace ORDER BY 1`.execute(database.db);
    const tenantTables = (inject('tenantTables') ?? []).filter((table) => !(table in NOT_DISTRIBUTED));
    expect(tenantTables.length).toBeGreaterThan(25);
    expect(rows.map((row) => row.table)).toEqual(tenantTables);
    expect(schema.partitioned).toEqual(tenantTables);
    for (const row of rows) expect(row, row.table).toMatchObject({ key: 'HASH (organisation_id)', partitions: PARTITIONS });
  });

  it('leaves no primary key or unique index of a tenant table without organisation_id', async () => {
    const { rows } = await sql<{ index: string }>`
      SELECT pg_get_indexdef(x.indexrelid) AS index FROM pg_index x JOIN pg_class c ON c.oid = x.indrelid
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'organisation_id'
      WHERE x.indisunique AND c.relnamespace = 'public'::regnamespace AND NOT c.relispartition
        AND NOT (a.attnum = ANY (x.indkey::int2[]))`.execute(database.db);
    expect(rows.map((row) => row.index).filter((index) => !Object.keys(NOT_DISTRIBUTED).some((t) => index.includes(` ON public.${t} `)))).toEqual([]);
  });

  it('extended only the keys reviewed as keeping their meaning', () => {
    expect([...schema.extended].sort()).toEqual(Object.keys(REVIEWED_EXTENSIONS).sort());
  });
});
