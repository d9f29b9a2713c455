import type { Kysely, Transaction } from 'kysely';
import { now } from '../../db/sql-helpers.js';
import type { DB } from '../../db/types.js';

type Db = Kysely<DB> | Transaction<DB>;

/** Removes the member from the organisation (Inactive, with today's Removed date) and frees their licence. */
export async function revokeMember(db: Db, organisationId: string, memberId: string): Promise<Date | null> {
  const row = await db
    .updateTable('members')
    .set({ revoked_at: now(), license_id: null, updated_at: now() })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', memberId)
    .where('revoked_at', 'is', null)
    .returning('revoked_at')
    .executeTakeFirst();
  return row?.revoked_at ?? null;
}
