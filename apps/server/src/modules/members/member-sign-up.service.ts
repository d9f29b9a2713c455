import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

/** The account a pending member signs up with (the identity provider's user). */
export interface SigningUpUser {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
}

/**
 * A pending member (an imported teacher, role -600) becomes a signed-up teacher once an account with
 * that address exists and the address is verified (issue 15, item 1): role 600, the account's name and
 * user id, `signed_up_at` now. Called by the identity module after an account is created or verified
 * and after every sign-in, so every sign-in method (e-mail, Google, Office 365, custom token) counts.
 * Unverified addresses prove nothing and change nothing. Returns how many members were signed up.
 */
export async function signUpPendingMembers(db: Kysely<DB>, user: SigningUpUser): Promise<number> {
  if (!user.emailVerified) return 0;
  const email = user.email.trim().toLowerCase();
  const result = await db
    .updateTable('members')
    .set({
      pending: false,
      role: sql<number>`CASE WHEN role < 0 THEN 600 ELSE role END`,
      display_name: sql<string>`CASE WHEN ${user.name.trim()} <> '' THEN ${user.name.trim()} ELSE display_name END`,
      user_id: user.id,
      signed_up_at: sql`now()`,
      updated_at: sql`now()`,
    })
    .where('email', '=', email)
    .where('pending', '=', true)
    .where('is_student', '=', false)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
