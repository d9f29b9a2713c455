import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/types.js';

type Db = Kysely<DB> | Transaction<DB>;

/**
 * SQL for SCIM tokens and the request log. Tokens are found by the SHA-256 of what the provider sends; every other
 * query filters on organisation_id.
 */

/** Locks the organisation's row so two generations at once count the same tokens. */
export async function lockOrganisation(db: Db, organisationId: string): Promise<void> {
  await db.selectFrom('organisations').select('id').where('id', '=', organisationId).forUpdate().execute();
}

export async function countLiveTokens(db: Db, organisationId: string): Promise<number> {
  const row = await db
    .selectFrom('scim_tokens')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organisation_id', '=', organisationId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertToken(db: Db, row: { id: string; organisationId: string; hash: Buffer; hint: string; createdBy: string }) {
  return db
    .insertInto('scim_tokens')
    .values({ id: row.id, organisation_id: row.organisationId, token_hash: row.hash, hint: row.hint, created_by_email: row.createdBy })
    .returning(['id', 'hint', 'created_by_email', 'created_at', 'last_used_at'])
    .executeTakeFirstOrThrow();
}

/** The organisation's tokens not revoked, newest first. */
export async function listLiveTokens(db: Db, organisationId: string) {
  return db
    .selectFrom('scim_tokens')
    .select(['id', 'hint', 'created_by_email', 'created_at', 'last_used_at'])
    .where('organisation_id', '=', organisationId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

export type ScimTokenRow = Awaited<ReturnType<typeof listLiveTokens>>[number];

/** Revokes one of the organisation's live tokens; its id, or undefined when it has no such live token. */
export async function revokeToken(db: Db, organisationId: string, id: string): Promise<string | undefined> {
  const row = await db
    .updateTable('scim_tokens')
    .set({ revoked_at: sql<Date>`now()` })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/**
 * The live token with this hash, in one statement that also records its use. last_used_at is written at most every
 * 30 seconds, so a provider's burst of requests does not queue on the token's row.
 */
export async function useToken(db: Db, hash: Buffer): Promise<{ id: string; organisation_id: string } | undefined> {
  const result = await sql<{ id: string; organisation_id: string }>`
    WITH t AS (
      SELECT id, organisation_id, last_used_at FROM scim_tokens WHERE token_hash = ${hash} AND revoked_at IS NULL LIMIT 1
    ), used AS (
      UPDATE scim_tokens s SET last_used_at = now() FROM t
      WHERE s.organisation_id = t.organisation_id AND s.id = t.id
        AND (t.last_used_at IS NULL OR t.last_used_at < now() - interval '30 seconds')
    )
    SELECT id, organisation_id FROM t`.execute(db);
  return result.rows[0];
}

/** Records one SCIM request and drops the organisation's rows beyond the newest `keep`. */
export async function logRequest(
  db: Transaction<DB>,
  row: { organisationId: string; tokenId: string; method: string; operation: string; subject: string | null; status: number; outcome: string },
  keep: number,
): Promise<void> {
  await commitWithoutFlush(db);
  await db
    .insertInto('scim_requests')
    .values({
      organisation_id: row.organisationId, token_id: row.tokenId, method: row.method, operation: row.operation,
      subject: row.subject, status: row.status, outcome: row.outcome,
    })
    .execute();
  await sql`
    DELETE FROM scim_requests WHERE organisation_id = ${row.organisationId} AND id <= (
      SELECT id FROM scim_requests WHERE organisation_id = ${row.organisationId} ORDER BY id DESC OFFSET ${keep} LIMIT 1
    )`.execute(db);
}

/** The organisation's newest SCIM requests. */
export async function listRequests(db: Db, organisationId: string, limit: number) {
  return db
    .selectFrom('scim_requests')
    .select(['at', 'method', 'operation', 'subject', 'status', 'outcome'])
    .where('organisation_id', '=', organisationId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * Lets the transaction commit without waiting for its WAL to reach the disk. For a request's bookkeeping only (the
 * token's last use, the rate-limit count, the request log): a crash may lose the last few of those, never a change to
 * the organisation's people, and a provider's request does not wait for a disk flush it does not need.
 */
export async function commitWithoutFlush(db: Transaction<DB>): Promise<void> {
  await sql`SET LOCAL synchronous_commit TO OFF`.execute(db);
}
