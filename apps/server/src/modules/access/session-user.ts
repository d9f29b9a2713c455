import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/types.js';

/**
 * Who must use 2-step verification besides the admins of organisations that require it: provider staff (addresses in
 * the provider's e-mail domain), unless configuration turned that off outside production (env.ts). Set once at start
 * by the identity module.
 */
let providerStaffPolicy: { domain: string; required: boolean } = { domain: '', required: false };

export function configureTwoStepPolicy(policy: { providerEmailDomain: string; providerStaffRequired: boolean }): void {
  providerStaffPolicy = { domain: policy.providerEmailDomain.trim().toLowerCase(), required: policy.providerStaffRequired };
}

/** The provider-staff rule as SQL over the user's e-mail (the same as isProviderStaffEmail: the domain, any case). */
function providerStaffRequired(email: ReturnType<typeof sql.ref>) {
  if (!providerStaffPolicy.required || !providerStaffPolicy.domain) return sql<boolean>`false`;
  // A literal in the statement's text, not a parameter: the Teachers page prepares its statement once per shape, and
  // every parameter of it is a request value (db/statement-shapes.ts). The domain is configuration, checked at start.
  const pattern = `%@${providerStaffPolicy.domain.replace(/[\\%_]/g, '\\$&')}`.replace(/'/g, "''");
  return sql<boolean>`lower(${email}) LIKE ${sql.raw(`'${pattern}'`)}`;
}

/**
 * Where a session stands with 2-step verification, as one SQL expression over `s` (session) and `u` (user):
 * - 'second-step': the person has it on and this session has not passed its second step yet;
 * - 'enrol': the person has it off but must have it on (an admin of an organisation that requires it, here or in an
 *   organisation above, or provider staff);
 * - null: the session may be used.
 */
export function twoStepBlock() {
  const enrolled = sql<boolean>`(EXISTS (SELECT 1 FROM two_step_factors f WHERE f.user_id = u.id AND f.confirmed_at IS NOT NULL)
    OR EXISTS (SELECT 1 FROM two_step_passkeys p WHERE p.user_id = u.id))`;
  const requiredByOrganisation = sql<boolean>`EXISTS (
    SELECT 1 FROM admins a
    JOIN organisation_ancestors under ON under.ancestor_id = a.organisation_id
    JOIN organisation_ancestors up ON up.organisation_id = under.organisation_id
    JOIN organisations o ON o.id = up.ancestor_id
    WHERE (a.user_id = u.id OR a.email = lower(btrim(u.email))) AND o.require_two_step_admins)`;
  return sql<'second-step' | 'enrol' | null>`CASE
    WHEN ${enrolled} THEN CASE WHEN s."twoStepMethod" IS NULL THEN 'second-step' END
    WHEN u."emailVerified" AND (${providerStaffRequired(sql.ref('u.email'))} OR ${requiredByOrganisation}) THEN 'enrol'
  END`;
}

/**
 * The user of a live session, by the session's token: not expired, not ended (sign-out and a password reset delete
 * the row), and with its 2-step verification state (`twoStep`, above). The one rule for which sessions open anything:
 * the actor hook runs it on its own (identity/session-actor.ts), the Teachers page inside its own statement
 * (org-access.ts, sessionOrgAccessRow); both open nothing while `twoStep` is set.
 */
export function liveSessionUser(db: Kysely<DB> | Transaction<DB>, token: string, now: Date = new Date()) {
  return db
    .selectFrom('session as s')
    .innerJoin('user as u', 'u.id', 's.userId')
    .select(['u.id', 'u.email', 'u.name', 'u.emailVerified', 's.id as sessionId'])
    .select(twoStepBlock().as('twoStep'))
    .where('s.token', '=', token)
    .where('s.expiresAt', '>', now);
}
