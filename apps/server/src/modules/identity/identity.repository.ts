import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/types.js';

type Db = Kysely<DB> | Transaction<DB>;

/** Better Auth's provider id for e-mail and password accounts. */
const CREDENTIAL_PROVIDER = 'credential';

export interface IdentityUser {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  image: string | null;
}

/** The user with this (case-insensitive) e-mail, or undefined. */
export async function findUserByEmail(db: Db, email: string): Promise<IdentityUser | undefined> {
  return db
    .selectFrom('user')
    .select(['id', 'email', 'name', 'emailVerified', 'image'])
    .where('email', '=', email.trim().toLowerCase())
    .executeTakeFirst();
}

export async function findUserById(db: Db, id: string): Promise<IdentityUser | undefined> {
  return db.selectFrom('user').select(['id', 'email', 'name', 'emailVerified', 'image']).where('id', '=', id).executeTakeFirst();
}

/** Provider ids (Better Auth's: credential, google, office365) of the accounts of the user with this e-mail. */
export async function findProviderIdsByEmail(db: Db, email: string): Promise<string[]> {
  const rows = await db
    .selectFrom('account')
    .innerJoin('user', 'user.id', 'account.userId')
    .select('account.providerId')
    .where('user.email', '=', email.trim().toLowerCase())
    .orderBy('account.createdAt')
    .execute();
  return [...new Set(rows.map((r) => r.providerId))];
}

/** The stored password hash of the user's e-mail-and-password account. */
export async function findPasswordHash(db: Db, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('account')
    .select('password')
    .where('userId', '=', userId)
    .where('providerId', '=', CREDENTIAL_PROVIDER)
    .executeTakeFirst();
  return row?.password ?? null;
}

/** True when a member row marks this e-mail (or user) as a student account. */
export async function isStudentAccount(db: Db, email: string, userId?: string): Promise<boolean> {
  const row = await db
    .selectFrom('members')
    .select('id')
    .where('is_student', '=', true)
    .where((eb) => {
      const byEmail = eb('email', '=', email.trim().toLowerCase());
      return userId ? eb.or([byEmail, eb('user_id', '=', userId)]) : byEmail;
    })
    .executeTakeFirst();
  return Boolean(row);
}

export async function insertAccessLog(
  db: Db,
  entry: { userId: string; event: string; ip: string | null; userAgent: string | null },
): Promise<void> {
  await db
    .insertInto('access_log')
    .values({ user_id: entry.userId, event: entry.event, ip: entry.ip, user_agent: entry.userAgent })
    .execute();
}

/** A marker row in Better Auth's verification table (used for single-use links). */
export async function findVerificationMarker(db: Db, identifier: string): Promise<boolean> {
  const row = await db
    .selectFrom('verification')
    .select('id')
    .where('identifier', '=', identifier)
    .executeTakeFirst();
  return Boolean(row);
}

export async function insertVerificationMarker(db: Db, identifier: string, expiresAt: Date): Promise<void> {
  await db
    .insertInto('verification')
    .values({ id: crypto.randomUUID(), identifier, value: '1', expiresAt, createdAt: new Date(), updatedAt: new Date() })
    .execute();
}

/** Marks the user's e-mail verified (tests and the demo generator; users follow the mail link). @internal */
export async function markEmailVerified(db: Db, userId: string): Promise<void> {
  await db.updateTable('user').set({ emailVerified: true, updatedAt: new Date() }).where('id', '=', userId).execute();
}

