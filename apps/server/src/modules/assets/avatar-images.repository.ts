import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

/** The avatar stored for a user, when it was made from the picture with this hash. */
export async function findAvatarImage(db: Kysely<DB>, userId: string, sourceHash: Buffer) {
  return db
    .selectFrom('avatar_images')
    .select(['body', 'content_type', 'etag'])
    .where('user_id', '=', userId)
    .where('source_hash', '=', sourceHash)
    .executeTakeFirst();
}

/** Keeps a user's avatar as served, in place of one made from an older picture. */
export async function saveAvatarImage(
  db: Kysely<DB>,
  row: { user_id: string; source_hash: Buffer; body: Buffer; content_type: string; etag: string },
): Promise<void> {
  await db
    .insertInto('avatar_images')
    .values(row)
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ source_hash: row.source_hash, body: row.body, content_type: row.content_type, etag: row.etag, created_at: new Date() }))
    .execute();
}
