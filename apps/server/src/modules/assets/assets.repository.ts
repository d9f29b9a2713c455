import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

/** The person behind an avatar id: an identity user id, or a member id (a teacher who may not have signed up). */
export async function findAvatarSubject(db: Kysely<DB>, id: string) {
  const user = await db.selectFrom('user').select(['id', 'email', 'name', 'image']).where('id', '=', id).executeTakeFirst();
  if (user) return { userId: user.id, email: user.email, name: user.name, image: user.image, memberOrganisationId: null as string | null };
  const member = await db
    .selectFrom('members as m')
    .leftJoin('user as u', 'u.id', 'm.user_id')
    .select(['m.organisation_id', 'm.email', 'm.display_name', 'u.id as user_id', 'u.name as user_name', 'u.image'])
    .where('m.id', '=', id)
    .executeTakeFirst();
  if (!member) return undefined;
  return {
    userId: member.user_id,
    email: member.email,
    name: member.user_name ?? member.display_name,
    image: member.image ?? null,
    memberOrganisationId: member.organisation_id,
  };
}

/**
 * Organisations a user belongs to: as a signed-up member or a linked admin, by identity user only. A row that
 * only names the user's e-mail (an import, a pending invitation) says nothing about them (docs/security.md).
 */
export async function organisationsOfUser(db: Kysely<DB>, userId: string): Promise<string[]> {
  const result = await sql<{ organisation_id: string }>`
    SELECT organisation_id FROM members WHERE user_id = ${userId} AND NOT pending
    UNION
    SELECT organisation_id FROM admins WHERE user_id = ${userId}
    LIMIT 200`.execute(db);
  return result.rows.map((r) => r.organisation_id);
}

export async function listFeaturedBooks(db: Kysely<DB>) {
  return db.selectFrom('featured_books').select(['book_id', 'owner_user_id', 'title', 'shape', 'position']).orderBy('position').execute();
}

export async function countFeaturedBooks(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom('featured_books').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function findFeaturedCover(db: Kysely<DB>, ownerUserId: string, bookId: string) {
  return db
    .selectFrom('featured_books')
    .select(['book_id', 'title', 'shape', 'cover', 'updated_at'])
    .where('owner_user_id', '=', ownerUserId)
    .where('book_id', '=', bookId)
    .executeTakeFirst();
}

export async function insertFeaturedBooks(
  db: Kysely<DB>,
  rows: Array<{ book_id: string; owner_user_id: string; title: string; shape: 'landscape' | 'square' | 'portrait'; position: number; cover: Buffer; cover_type: string }>,
): Promise<void> {
  if (rows.length) await db.insertInto('featured_books').values(rows).onConflict((oc) => oc.column('book_id').doNothing()).execute();
}

/** A book of an organisation's library written by the user: its title, shape and organisation. */
export async function findOrganisationBook(db: Kysely<DB>, userId: string, bookId: string) {
  return db
    .selectFrom('books as b')
    .innerJoin('members as m', (join) => join.onRef('m.organisation_id', '=', 'b.organisation_id').onRef('m.id', '=', 'b.author_member_id'))
    .select(['b.id', 'b.title', 'b.shape', 'b.organisation_id'])
    .where('b.id', '=', bookId)
    .where('m.user_id', '=', userId)
    .executeTakeFirst();
}
