import { Kysely, sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/helper.js';
import { pgBossDatabase } from '../jobs/boss.js';
import { isPoolTimeout, type Database } from './client.js';
import { PgliteSession, pgliteDialect } from './pglite-session.js';
import type { DB } from './types.js';

// Every caller of the database sees transactions as PostgreSQL gives them to separate connections: a statement sent
// while another caller's transaction is open is not part of it, and that transaction's commit or rollback does not
// take the statement with it. The embedded database (PGlite) has one session for everyone, so this holds there only
// because one caller at a time has it: a transaction keeps it from BEGIN to COMMIT, pg-boss's statements included.

let database: Database;
useTestDatabase((opened) => (database = opened));

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

async function notes(db: Kysely<DB>): Promise<string[]> {
  const { rows } = await sql<{ text: string }>`select text from transaction_notes order by text`.execute(db);
  return rows.map((r) => r.text);
}

const insert = (db: Kysely<DB>, text: string) => sql`insert into transaction_notes (text) values (${text})`.execute(db);

class Undo extends Error {}

describe('transactions beside other callers', () => {
  beforeEach(async () => {
    await sql`create table if not exists transaction_notes (text text primary key)`.execute(database.db);
    await sql`truncate transaction_notes`.execute(database.db);
  });

  it("keeps a write sent while another caller's transaction is open when that transaction rolls back", async () => {
    const inside = gate();
    const release = gate();
    const failed = database.db
      .transaction()
      .execute(async (trx) => {
        await insert(trx, 'rolled back');
        inside.open();
        await release.opened;
        throw new Undo();
      })
      .catch((error: unknown) => error);
    await inside.opened;
    const beside = insert(database.db, 'kept');
    // Let the write beside reach the database (or its queue) before the transaction ends.
    await new Promise((resolve) => setTimeout(resolve, 50));
    release.open();
    expect(await failed).toBeInstanceOf(Undo);
    await beside;
    expect(await notes(database.db)).toEqual(['kept']);
  });

  it("does not let another caller's commit commit an open transaction halfway", async () => {
    const inside = gate();
    const release = gate();
    const failed = database.db
      .transaction()
      .execute(async (trx) => {
        await insert(trx, 'first half');
        inside.open();
        await release.opened;
        await insert(trx, 'second half');
        throw new Undo();
      })
      .catch((error: unknown) => error);
    await inside.opened;
    const other = database.db.transaction().execute((trx) => insert(trx, 'committed'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    release.open();
    expect(await failed).toBeInstanceOf(Undo);
    await other;
    expect(await notes(database.db)).toEqual(['committed']);
  });

  it("keeps the background jobs' statements out of an open transaction, a failed one included", async () => {
    const jobs = pgBossDatabase(database);
    const inside = gate();
    const release = gate();
    const committed = database.db.transaction().execute(async (trx) => {
      await insert(trx, 'the transaction');
      inside.open();
      await release.opened;
      await insert(trx, 'its second write');
    });
    await inside.opened;
    const jobWrite = jobs.executeSql('insert into transaction_notes (text) values ($1)', ['a job']);
    // A statement of the job queue that fails (pg-boss's PGlite adapter answers that with a ROLLBACK).
    const jobFailure = jobs.executeSql('insert into transaction_notes (text) values ($1)', ['the transaction']).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    release.open();
    await committed;
    await jobWrite;
    // The job's duplicate came after the commit, so it is the job's statement that fails, not the transaction.
    expect(await jobFailure).toBeInstanceOf(Error);
    expect(await notes(database.db)).toEqual(['a job', 'its second write', 'the transaction']);
  });
});

// PostgreSQL's pool answers a caller that waits longer than DATABASE_POOL_TIMEOUT_MS for a connection with its timeout
// (503 'server_busy', plugins/error-handler.ts); the embedded database does the same past its session's wait.
describe.skipIf(process.env.TEST_DATABASE_URL)('the embedded database held by a long transaction', () => {
  it("refuses a statement that waited longer than the session's wait as busy, and serves the next one once the transaction is done", async () => {
    // The same embedded database through a session that waits 200 ms.
    const short = new Kysely<DB>({ dialect: pgliteDialect(new PgliteSession(database.pglite!, 200)) });
    const inside = gate();
    const release = gate();
    const held = short.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      inside.open();
      await release.opened;
    });
    await inside.opened;
    const started = performance.now();
    const refused = await sql`select 1`.execute(short).catch((error: unknown) => error);
    expect(isPoolTimeout(refused)).toBe(true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(150);
    release.open();
    await held;
    expect((await sql<{ one: number }>`select 1 as one`.execute(short)).rows).toEqual([{ one: 1 }]);
  });
});
