import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../client.js';
import { useTestDatabase } from '../../../test/helper.js';
import { buildOrganisation, buildUser } from '../../../test/factories.js';
import * as migration from './0029-tenant-keys.js';

let database: Database;
useTestDatabase((opened) => (database = opened));

/** The columns of a table's primary key, in order. */
async function primaryKey(table: string): Promise<string[]> {
  const { rows } = await sql<{ column: string }>`
    SELECT a.attname AS column FROM pg_constraint c CROSS JOIN unnest(c.conkey) WITH ORDINALITY k(n, o)
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n
    WHERE c.conrelid = ${table}::regclass AND c.contype = 'p' ORDER BY k.o`.execute(database.db);
  return rows.map((row) => row.column);
}

// Its down() restores keys a partitioned table refuses: not run in the partitioned-schema mode.
describe.skipIf(process.env.QUIRE_TEST_PARTITIONED === '1')('migration 0029-tenant-keys', () => {
  it('gives the two keys organisation_id and moves audit entries of no organisation to their actor’s access log', async () => {
    const db = database.db;
    const org = await buildOrganisation(db);
    const person = await buildUser(db);
    await migration.down(db as never);
    expect(await primaryKey('library_memberships')).toEqual(['library_id', 'member_id']);
    await sql`
      INSERT INTO audit_events (organisation_id, actor_user_id, action, ip, user_agent, created_at) VALUES
        (NULL, ${person.id}, 'security.two_step.disabled', '203.0.113.9', 'Browser', '2026-01-02T03:04:05Z'),
        (NULL, NULL, 'security.two_step.enabled', NULL, NULL, now()),
        (${org.id}, ${person.id}, 'security.two_step.enabled', NULL, NULL, now())`.execute(db);

    await migration.up(db as never);

    expect(await primaryKey('library_memberships')).toEqual(['library_id', 'member_id', 'organisation_id']);
    expect(await primaryKey('portfolio_export_chunks')).toEqual(['export_id', 'seq', 'organisation_id']);
    const log = await db.selectFrom('access_log').select(['event', 'ip', 'user_agent', 'created_at']).where('user_id', '=', person.id).execute();
    expect(log).toEqual([{ event: 'security.two_step.disabled', ip: '203.0.113.9', user_agent: 'Browser', created_at: new Date('2026-01-02T03:04:05Z') }]);
    const entries = await db.selectFrom('audit_events').select('organisation_id').where('action', 'like', 'security.two_step.%').execute();
    expect(entries).toEqual([{ organisation_id: org.id }]);
    await expect(sql`INSERT INTO audit_events (organisation_id, action) VALUES (NULL, 'x')`.execute(db)).rejects.toThrow(/null value/);
  });
});
