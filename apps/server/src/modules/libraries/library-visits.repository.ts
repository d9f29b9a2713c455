import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/types.js';

/**
 * Visit tokens live in the identity provider's `verification` table (identifier `library-visit:<sha256>`),
 * which already holds every other short-lived single-use token, so no table of their own is needed.
 */

type Db = Kysely<DB> | Transaction<DB>;

const PREFIX = 'library-visit:';

export interface VisitTokenValue {
  userId: string;
  organisationId: string;
  libraryId: string;
}

export async function insertVisitToken(db: Db, tokenHash: string, value: VisitTokenValue, expiresAt: Date): Promise<void> {
  const now = new Date();
  await db
    .insertInto('verification')
    .values({ id: randomUUID(), identifier: `${PREFIX}${tokenHash}`, value: JSON.stringify(value), expiresAt, createdAt: now, updatedAt: now })
    .execute();
}

/** Deletes the token and answers its value when it was still valid: one statement, so it is used at most once. */
export async function consumeVisitToken(db: Db, tokenHash: string): Promise<VisitTokenValue | null> {
  const row = await db
    .deleteFrom('verification')
    .where('identifier', '=', `${PREFIX}${tokenHash}`)
    .returning(['value', sql<boolean>`"expiresAt" > now()`.as('valid')])
    .executeTakeFirst();
  if (!row?.valid) return null;
  return JSON.parse(row.value) as VisitTokenValue;
}
