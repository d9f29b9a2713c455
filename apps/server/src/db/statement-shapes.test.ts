import { Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql, type CompiledQuery, type DatabaseConnection, type Driver } from 'kysely';
import { describe, expect, it } from 'vitest';
import { StatementShapes } from './statement-shapes.js';

/** A database that answers every statement with one row: its SQL text and its parameters, as sent. */
function echoDb() {
  const connection: DatabaseConnection = {
    executeQuery: async (query: CompiledQuery) => ({ rows: [{ sql: query.sql, parameters: query.parameters }] as never[] }),
    streamQuery: () => {
      throw new Error('not used');
    },
  };
  const driver: Driver = {
    init: async () => undefined,
    acquireConnection: async () => connection,
    beginTransaction: async () => undefined,
    commitTransaction: async () => undefined,
    rollbackTransaction: async () => undefined,
    releaseConnection: async () => undefined,
    destroy: async () => undefined,
  };
  return new Kysely<{ people: { id: string; org: string; age: number } }>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}
type Db = ReturnType<typeof echoDb>;
type Echo = { sql: string; parameters: unknown[] };

describe('StatementShapes', () => {
  const db = echoDb();
  const people = (d: Db, shape: { older: boolean }, v: { org: string; age?: number }) => {
    let query = d.selectFrom('people').select('id').where('org', '=', v.org).where('id', 'is not', null);
    if (shape.older) query = query.where('age', '>', v.age!).where('age', '<', 200);
    return sql<Echo>`${query}`;
  };

  it("builds each shape's text once and sends each execution its own values", async () => {
    const shapes = new StatementShapes<{ people: { id: string; org: string; age: number } }, { older: boolean }, { org: string; age?: number }, Echo>(people);
    const a = await shapes.execute(db, 'plain', { older: false }, { org: 'org-a' });
    const b = await shapes.execute(db, 'plain', { older: false }, { org: 'org-b' });
    expect(shapes.compiles).toBe(1);
    expect(a.rows[0]!.parameters).toEqual(['org-a']);
    expect(b.rows[0]!.parameters).toEqual(['org-b']);
    expect(b.rows[0]!.sql).toBe(a.rows[0]!.sql);

    const older = await shapes.execute(db, 'older', { older: true }, { org: 'org-c', age: 40 });
    expect(shapes.compiles).toBe(2);
    // The constant 200 stays as written; the request's values take their slots.
    expect(older.rows[0]!.parameters).toEqual(['org-c', 40, 200]);
    expect(older.rows[0]!.sql).toContain('"age" >');
  });

  it('refuses a builder that takes a request value from anywhere but its slots', async () => {
    let captured = 'org-a';
    const leaky = new StatementShapes<{ people: { id: string; org: string; age: number } }, { older: boolean }, { org: string }, Echo>((d) =>
      sql<Echo>`${d.selectFrom('people').select('id').where('org', '=', captured)}`,
    );
    await expect(leaky.execute(db, 'x', { older: false }, { org: 'org-a' })).rejects.toThrow(/not a slot \(string\)/);
    captured = 'org-b';
    await expect(leaky.execute(db, 'x', { older: false }, { org: 'org-b' })).rejects.toThrow(/not a slot/);

    // Arithmetic on a slot is a derived value: it must be a value of its own.
    const derived = new StatementShapes<{ people: { id: string; org: string; age: number } }, { older: boolean }, { age: number }, Echo>((d, _shape, v) =>
      sql<Echo>`${d.selectFrom('people').select('id').where('age', '>', v.age * 2)}`,
    );
    await expect(derived.execute(db, 'x', { older: false }, { age: 3 })).rejects.toThrow(/not a slot \(number\)/);
  });

  it('refuses an execution without a value its shape uses', async () => {
    const shapes = new StatementShapes<{ people: { id: string; org: string; age: number } }, { older: boolean }, { org: string; age?: number }, Echo>(people);
    await expect(shapes.execute(db, 'older', { older: true }, { org: 'org-a' })).rejects.toThrow(/no value for the slot 'age'/);
  });

  it('keeps at most the given number of shapes, dropping the oldest', async () => {
    const shapes = new StatementShapes<{ people: { id: string; org: string; age: number } }, { older: boolean }, { org: string; age?: number }, Echo>(people, 2);
    await shapes.execute(db, 'plain', { older: false }, { org: 'a' });
    await shapes.execute(db, 'older', { older: true }, { org: 'a', age: 1 });
    await shapes.execute(db, 'plain-2', { older: false }, { org: 'a' });
    expect(shapes.compiles).toBe(3);
    await shapes.execute(db, 'older', { older: true }, { org: 'a', age: 1 });
    expect(shapes.compiles).toBe(3);
    await shapes.execute(db, 'plain', { older: false }, { org: 'a' });
    expect(shapes.compiles).toBe(4);
  });
});
