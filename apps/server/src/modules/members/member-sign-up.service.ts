import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { signUpPendingByEmail } from './members.repository.js';

/** The account a pending member signs up with (the identity provider's user). */
export interface SigningUpUser {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
}

/**
 * A pending member (an imported teacher, role -600) becomes a signed-up teacher once an account with
 * that address exists and the address is verified: role 600, the account's name and
 * user id, `signed_up_at` now. Called by the identity module after an account is created or verified
 * and after every sign-in, so every sign-in method (e-mail, Google, Office 365, custom token) counts.
 * Unverified addresses prove nothing and change nothing. Returns how many members were signed up.
 */
export async function signUpPendingMembers(db: Kysely<DB>, user: SigningUpUser): Promise<number> {
  if (!user.emailVerified) return 0;
  return signUpPendingByEmail(db, user.email.trim().toLowerCase(), user);
}
