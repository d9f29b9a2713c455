import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { openDatabase } from '../apps/server/src/db/client.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { testEnv } from '../apps/server/test/helper.js';
import { adminQuery } from './load.js';
const admin = 'postgres://postgres@127.0.0.1:5547/postgres';
await adminQuery(admin, 'DROP DATABASE IF EXISTS quire_scratch WITH (FORCE)');
await adminQuery(admin, 'CREATE DATABASE quire_scratch');
const database = await openDatabase({ ...testEnv({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5547/quire_scratch' }) });
const db = database.db;
await migrateToLatest(db);
const orgs: string[] = [];
for (let i = 0; i < 20; i++) { const id = randomUUID(); orgs.push(id); await db.insertInto('organisations').values({ id, name: `S${i}` }).execute(); }
let k = 0;
for (let round = 0; round < 4; round++) {
  const rows = Array.from({ length: 5000 }, () => { k++; return { id: randomUUID(), organisation_id: orgs[k % 20], email: `user${k}@bench-district.example.org`, display_name: `Given${k} Family${k}`, license_id: null }; });
  const r = await sql<{ 'QUERY PLAN': string }>`EXPLAIN (ANALYZE, BUFFERS) INSERT INTO members (id, organisation_id, email, display_name, role, pending, license_id)
    SELECT v.id, v.organisation_id, v.email, v.display_name, -600, true, v.license_id
    FROM json_to_recordset(${JSON.stringify(rows)}::json) AS v(id text, organisation_id text, email text, display_name text, license_id text)`.execute(db);
  console.log(r.rows.map((x) => x['QUERY PLAN']).join('\n'));
}
console.log((await sql<{ i: string }>`select indexdef as i from pg_indexes where tablename in ('members','roster_members')`.execute(db)).rows.map((r) => r.i).join('\n'));
console.log((await sql<{ t: string }>`select tgname || ' ' || tgrelid::regclass as t from pg_trigger where tgrelid in ('members'::regclass, 'roster_members'::regclass)`.execute(db)).rows.map((r) => r.t).join('\n'));
await db.destroy();
