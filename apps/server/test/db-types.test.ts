import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { openTestDatabase } from './helper.js';

/**
 * db/types.ts is written by hand beside the migrations: this keeps the two from drifting. Every table
 * and column of the migrated schema must be declared there, with the same nullability, and nothing more.
 */
// The DB interface is in types.ts; the tables of some areas are in files beside it (types-*.ts), read with it.
const typesFiles = ['types.ts', 'types-integrations.ts', 'types-analytics.ts'].map((name) => new URL(`../src/db/${name}`, import.meta.url));
// The migrator's own bookkeeping.
const IGNORED_TABLES = new Set(['quire_migrations', 'quire_migrations_lock']);

/** `{ table: { column: nullable } }` as types.ts declares it. */
function declaredSchema(source: string): Record<string, Record<string, boolean>> {
  const interfaces = new Map<string, string>();
  for (const match of source.matchAll(/^(?:export )?interface (\w+) \{\n([\s\S]*?)\n\}/gm)) interfaces.set(match[1]!, match[2]!);
  const db = interfaces.get('DB');
  if (!db) throw new Error('types.ts has no DB interface');
  const schema: Record<string, Record<string, boolean>> = {};
  for (const [, table, name] of db.matchAll(/^\s+(\w+): (\w+);/gm)) {
    const body = interfaces.get(name!);
    if (!body) throw new Error(`types.ts: DB.${table} names ${name}, which is not an interface of the file`);
    const columns: Record<string, boolean> = {};
    for (const [, column, type] of body.matchAll(/^\s{2}(\w+)\??: (.+);$/gm)) {
      // The selected type is the first argument of ColumnType / Generated / Json, or the type itself.
      const selected = /^(?:ColumnType|Generated|Json)<(.+)>$/.exec(type!)?.[1]?.split(/,(?![^<]*>)/)[0] ?? type!;
      columns[column!] = /\bnull\b/.test(selected) || selected.trim() === 'NullableTimestamp';
    }
    schema[table!] = columns;
  }
  return schema;
}

let database: Database;
beforeAll(async () => {
  ({ database } = await openTestDatabase());
});
afterAll(() => database?.close());

describe('db/types.ts', () => {
  it('declares exactly the migrated tables and columns, with their nullability', async () => {
    const rows = await sql<{ table_name: string; column_name: string; is_nullable: string }>`
      select table_name, column_name, is_nullable from information_schema.columns
      where table_schema = 'public'
        -- The partitions of the partitioned-schema mode (test/partitioned-schema.ts) are the tables' storage, not tables of their own.
        and table_name not in (select relname from pg_class where relispartition and relnamespace = 'public'::regnamespace)
      order by table_name, ordinal_position`.execute(database.db);
    const migrated: Record<string, Record<string, boolean>> = {};
    for (const row of rows.rows) {
      if (IGNORED_TABLES.has(row.table_name)) continue;
      (migrated[row.table_name] ??= {})[row.column_name] = row.is_nullable === 'YES';
    }
    expect(declaredSchema(typesFiles.map((file) => readFileSync(file, 'utf8')).join('\n'))).toEqual(migrated);
  });

  it('the comparison notices a column that is missing or of the wrong nullability', () => {
    const source = 'export interface ATable {\n  id: string;\n  note: string | null;\n  at: NullableTimestamp;\n}\n\nexport interface DB {\n  a: ATable;\n}\n';
    expect(declaredSchema(source)).toEqual({ a: { id: false, note: true, at: true } });
    expect(declaredSchema(source)).not.toEqual({ a: { id: false, note: false, at: true } });
  });
});
