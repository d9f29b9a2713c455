import type { Kysely } from 'kysely';
import { anyOf } from '../../db/sql-helpers.js';
import type { DB } from '../../db/types.js';

/** The selected members with what the e-mail needs: their state and their licence's book quota. */
export async function findRecipients(db: Kysely<DB>, organisationId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('members as m')
    .leftJoin('licenses as l', 'l.id', 'm.license_id')
    .select(['m.id', 'm.email', 'm.pending', 'm.is_student', 'm.revoked_at', 'l.book_quota'])
    .where('m.organisation_id', '=', organisationId)
    .where(anyOf('m.id', ids))
    .orderBy('m.email')
    .execute();
}

