import { sql, type RawBuilder } from 'kysely';

/**
 * SQL fragments every repository repeats, written once (as immich's `utils/database.ts` does).
 * Each takes a column reference (`'id'`, `'m.email'`, …) checked by Kysely's `sql.ref`.
 */

/**
 * `column = ANY($1::text[])`: one array parameter however many values, so a list of 20,000 ids is one
 * parameter, never 20,000 (PostgreSQL allows 65,535 per statement).
 */
export function anyOf(column: string, values: readonly string[]): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} = ANY(${[...values]}::text[])`;
}

/** The transaction's time, for `updated_at`, `revoked_at`, `signed_up_at` (the database clock decides). */
export function now(): RawBuilder<Date> {
  return sql<Date>`now()`;
}
