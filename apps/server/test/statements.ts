import type { Kysely } from 'kysely';
import { vi } from 'vitest';
import type { DB } from '../src/db/types.js';

/** The SQL of every statement the app runs on `db` (outside transactions) until `stop()`. */
export function recordStatements(db: Kysely<DB>): { readonly sql: string[]; stop(): void } {
  const executor = db.getExecutor();
  const sql: string[] = [];
  const original = executor.executeQuery.bind(executor);
  const spy = vi.spyOn(executor, 'executeQuery').mockImplementation((query) => {
    sql.push(query.sql);
    return original(query);
  });
  return { sql, stop: () => spy.mockRestore() };
}

/** Statements that read the sign-in session table: the request's own session (by its cookie's token) or a link's binding (by id). */
export function sessionReads(sql: readonly string[]): { byToken: number; byId: number } {
  const reads = sql.filter((text) => /\bsession\b/i.test(text) && !/^\s*(insert|update|delete)\b/i.test(text));
  return {
    byToken: reads.filter((text) => /\btoken"?\s*=/i.test(text)).length,
    byId: reads.filter((text) => !/\btoken"?\s*=/i.test(text)).length,
  };
}
