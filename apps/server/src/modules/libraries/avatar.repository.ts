import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

/** The identity user behind an id that may be a user id or a member id. */
export async function findAvatarUser(db: Kysely<DB>, id: string) {
  const byUser = await db.selectFrom('user').select(['id', 'email', 'image']).where('id', '=', id).executeTakeFirst();
  if (byUser) return byUser;
  return db
    .selectFrom('members as m')
    .innerJoin('user as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email', 'u.image'])
    .where('m.id', '=', id)
    .executeTakeFirst();
}

/** Organisations the user belongs to, as a member or as an admin (by identity user or e-mail). */
export async function organisationsOfUser(db: Kysely<DB>, user: { id: string; email: string }): Promise<string[]> {
  const email = user.email.toLowerCase();
  const result = await sql<{ organisation_id: string }>`
    SELECT organisation_id FROM members WHERE user_id = ${user.id} OR email = ${email}
    UNION
    SELECT organisation_id FROM admins WHERE user_id = ${user.id} OR email = ${email}
    LIMIT 200`.execute(db);
  return result.rows.map((r) => r.organisation_id);
}
