import type { Kysely } from 'kysely';
import { now } from '../../db/sql-helpers.js';
import type { DB } from '../../db/types.js';

/** The organisation's name, locked for the rename that follows. */
export async function lockOrganisationName(db: Kysely<DB>, organisationId: string) {
  return db.selectFrom('organisations').select(['id', 'name']).where('id', '=', organisationId).forUpdate().executeTakeFirst();
}

export async function setOrganisationName(db: Kysely<DB>, organisationId: string, name: string) {
  return db
    .updateTable('organisations')
    .set({ name, updated_at: now() })
    .where('id', '=', organisationId)
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
}
