import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

/** Renames the member's private library (My Books), or creates it when they have none (Switch to student). */
export async function upsertPrivateLibrary(
  db: Kysely<DB>,
  organisationId: string,
  memberId: string,
  name: string,
  newId: string,
): Promise<{ id: string; name: string; created: boolean }> {
  const renamed = await db
    .updateTable('libraries')
    .set({ name })
    .where('organisation_id', '=', organisationId)
    .where('owner_member_id', '=', memberId)
    .where('is_private', '=', true)
    .returning(['id', 'name'])
    .executeTakeFirst();
  if (renamed) return { ...renamed, created: false };
  const created = await db
    .insertInto('libraries')
    .values({ id: newId, organisation_id: organisationId, owner_member_id: memberId, name, is_private: true })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
  return { ...created, created: true };
}
