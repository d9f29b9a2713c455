import type { Kysely } from 'kysely';
import { APIError } from 'better-auth/api';
import {
  isDistrictSsoEmail,
  isProviderStaffEmail,
  isValidEmail,
  isCityGovernmentEmail,
  normaliseEmail,
  PASSWORD_MIN_LENGTH,
  type ErrorCode,
} from '@quire/core';
import type { DB } from '../../db/types.js';
import type { Env } from '../../env.js';
import { AppError, appError, unauthorised } from '../../errors.js';
import type { ClientInfo } from '../access/actor.js';
import { recordAuditIn } from '../access/audit.js';
import { listedAdminOrganisations } from '../access/org-access.js';
import { authDomainRules, VERIFY_EMAIL_PAGE, type Auth } from '../identity/auth.js';
import { issueCustomTokenForSession, issueCustomTokenForUser, type ClientMeta } from '../identity/custom-token.js';
import {
  findPasswordHash,
  findProviderIdsByEmail,
  findUserByEmail,
  insertAccessLog,
  isStudentAccount,
} from '../identity/identity.repository.js';
import { dummyPasswordHash, verifyPassword } from '../identity/password.js';
import { specProviderName } from '../identity/oidc-providers.js';

export interface AuthContractsDeps {
  auth: Auth;
  db: Kysely<DB>;
  env: Env;
}

const invalidCredentials = (code: 'auth/wrong-password' | 'auth/user-not-found') => appError(code);

function checkedEmail(value: string): string {
  const email = normaliseEmail(value);
  if (!isValidEmail(email)) throw appError('auth/invalid-email');
  return email;
}

/** POST {auth}/email, sign-in: credentials → a custom token for a new session. */
export async function signInWithPassword(
  deps: AuthContractsDeps,
  input: { email: string; password: string },
  client: ClientMeta,
): Promise<{ token: string; emailVerified: boolean; userId: string }> {
  const email = checkedEmail(input.email);
  const rules = authDomainRules(deps.env);
  const user = await findUserByEmail(deps.db, email);
  try {
    if (isDistrictSsoEmail(email, rules.districtSsoDomains)) throw appError('auth/district-sso');
    if (isCityGovernmentEmail(email, rules.cityGovernmentSuffixes)) throw appError('auth/city-government');
    const hash = user ? await findPasswordHash(deps.db, user.id) : null;
    // Compared against a dummy hash when the account does not exist, so both answers take as long.
    const valid = await verifyPassword(hash ?? (await dummyPasswordHash()), input.password);
    if (!user) throw invalidCredentials('auth/user-not-found');
    if (!hash || !valid) throw invalidCredentials('auth/wrong-password');
  } catch (error) {
    // A refused sign-in of an admin's address is recorded in their organisations, with the reason.
    if (error instanceof AppError) {
      const where = { ip: client.ipAddress, userAgent: client.userAgent?.slice(0, 512) ?? null };
      await recordConsoleSignIn(deps, { userId: user?.id ?? null, email, name: user?.name ?? null }, where, { code: error.code, message: error.message });
    }
    throw error;
  }
  const token = await issueCustomTokenForUser(deps.auth, user.id, client);
  return { token, emailVerified: user.emailVerified, userId: user.id };
}

/** POST {auth}/allowed-as-teacher: refuses staff, district-SSO and student addresses (docs/identity.md). */
export async function assertAllowedAsTeacher(deps: AuthContractsDeps, input: { email: string; userId?: string }): Promise<void> {
  const email = checkedEmail(input.email);
  const rules = authDomainRules(deps.env);
  const refused =
    isProviderStaffEmail(email, deps.env.PROVIDER_EMAIL_DOMAIN) ||
    isDistrictSsoEmail(email, rules.districtSsoDomains) ||
    (await isStudentAccount(deps.db, email, input.userId));
  if (refused) throw appError('not_allowed_as_teacher');
}

/** POST {auth}/email, sign-up: creates the account (verification mail goes out) and returns a custom token. */
export async function registerWithPassword(
  deps: AuthContractsDeps,
  input: { email: string; password: string; displayName: string },
): Promise<{ token: string; emailVerified: boolean; userId: string }> {
  const email = checkedEmail(input.email);
  const name = input.displayName.trim();
  if (!name) throw appError('auth/missing-display-name');
  if (input.password.length < PASSWORD_MIN_LENGTH) throw appError('auth/weak-password');
  if (isDistrictSsoEmail(email, authDomainRules(deps.env).districtSsoDomains)) {
    throw appError('auth/district-sso');
  }
  await assertAllowedAsTeacher(deps, { email });
  if (await findUserByEmail(deps.db, email)) throw appError('auth/email-already-in-use');
  let created: { token: string | null; user: { id: string } };
  try {
    created = await deps.auth.api.signUpEmail({ body: { email, password: input.password, name, callbackURL: VERIFY_EMAIL_PAGE } });
  } catch (error) {
    // Lost a race with another registration of the same address.
    if (error instanceof APIError && error.status === 'UNPROCESSABLE_ENTITY') {
      throw appError('auth/email-already-in-use');
    }
    throw error;
  }
  if (!created.token) throw appError('auth/internal-error');
  const token = await issueCustomTokenForSession(deps.auth, created.token);
  return { token, emailVerified: false, userId: created.user.id };
}

/** GET {api}/users/v2/providers/{email}: the spec's provider names; [] when there is no account. */
export async function providerNamesFor(deps: AuthContractsDeps, rawEmail: string): Promise<string[]> {
  const email = normaliseEmail(rawEmail);
  if (!isValidEmail(email)) return [];
  return (await findProviderIdsByEmail(deps.db, email)).map(specProviderName);
}

/** POST {api}/resend-email/{email}: sends only to an unverified account; the answer never says which. */
export async function resendVerification(deps: AuthContractsDeps, rawEmail: string): Promise<void> {
  const email = normaliseEmail(rawEmail);
  if (!isValidEmail(email)) return;
  const user = await findUserByEmail(deps.db, email);
  if (!user || user.emailVerified) return;
  await deps.auth.api.sendVerificationEmail({ body: { email, callbackURL: VERIFY_EMAIL_PAGE } });
}

/** POST {payments}/v1/admin/auth: a custom token for the session in the cookie. */
export async function customTokenForSession(deps: AuthContractsDeps, headers: Headers): Promise<string> {
  const found = await deps.auth.api.getSession({ headers, query: { disableRefresh: true } });
  if (!found) throw unauthorised();
  return issueCustomTokenForSession(deps.auth, found.session.token);
}

/**
 * A console sign-in, or its refusal, in the audit log of each organisation the person is listed as an admin of
 * (nothing for anyone else: a teacher's sign-in is not an admin's). A refusal names the person by the e-mail tried.
 */
export async function recordConsoleSignIn(
  deps: AuthContractsDeps,
  person: { userId: string | null; email: string; name: string | null },
  client: ClientInfo,
  refusal?: { code: ErrorCode; message: string },
): Promise<void> {
  const organisations = await listedAdminOrganisations(deps.db, { userId: person.userId, email: person.email });
  if (organisations.length === 0) return;
  const actor = {
    userId: person.userId ?? '',
    email: person.email,
    displayName: person.name ?? '',
    emailVerified: true,
    client,
    providerStaff: isProviderStaffEmail(person.email, deps.env.PROVIDER_EMAIL_DOMAIN),
  };
  await deps.db.transaction().execute((trx) =>
    recordAuditIn(trx, organisations, actor, {
      action: 'console.sign_in',
      ...(refusal ? { outcome: 'refused' as const, errorCode: refusal.code, details: { reason: refusal.message } } : {}),
    }),
  );
}

export async function recordAccess(
  deps: AuthContractsDeps,
  entry: { userId: string; event: string; ip: string | null; userAgent: string | null },
): Promise<void> {
  await insertAccessLog(deps.db, entry);
}
