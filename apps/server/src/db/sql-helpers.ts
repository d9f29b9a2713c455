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

/**
 * The organisation tree's lock, for the transaction: exclusive for a move of the tree (two moves at once could each
 * pass the checks and together make a cycle), shared for a change that depends on where an organisation sits (seats
 * a district allocates to its school), which may run alongside another but never alongside a move.
 */
export function lockOrganisationTree(mode: 'exclusive' | 'shared'): RawBuilder<unknown> {
  const fn = sql.raw(mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock');
  return sql`SELECT ${fn}(hashtextextended('organisation-tree', 0))`;
}

/**
 * True when `error` is PostgreSQL's unique violation (SQLSTATE 23505) of `constraint`: what a check-then-write loses to a
 * concurrent writer, so the caller can answer it as the conflict it is rather than as a server failure. Both drivers
 * (pg and PGlite) report the SQLSTATE as `code` and the constraint's name as `constraint`.
 */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, constraint: name } = error as { code?: unknown; constraint?: unknown };
  return code === '23505' && name === constraint;
}
