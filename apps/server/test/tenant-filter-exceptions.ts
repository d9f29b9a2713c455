import { statementFingerprint } from './tenant-filter.js';

/**
 * Statements on tenant tables that rightly name no organisation (./tenant-filter.ts), each with its reason. A statement
 * is listed only when it must see a person across every organisation, or finds its rows by a key that is itself
 * global. Matched by libpg-query's fingerprint, so other values and list lengths match too.
 */
const EXCEPTIONS: ReadonlyArray<{ sql: string; reason: string }> = [
  {
    // identity.repository.ts, isStudentAccount
    sql: 'select "id" from "members" where "is_student" = $1 and "email" = $2',
    reason: 'A student account is refused the console whichever organisation made it a student: the question is about the person, in every organisation.',
  },
  {
    sql: 'select "id" from "members" where "is_student" = $1 and ("email" = $2 or "user_id" = $3)',
    reason: 'The same question for a signed-in user, by address or account.',
  },
  {
    // org-membership.repository.ts, markProviderStaffByDomain
    sql: 'update "members" set "is_provider_staff" = $1, "license_id" = $2, "updated_at" = now() where "is_provider_staff" = $3 and "email" like $4 returning "id"',
    reason: "Run once at start: provider staff's rows in every organisation are marked (a sweep of the whole install, not a request's work).",
  },
];

/** The exceptions by fingerprint, with their reasons. */
export const TENANT_FILTER_EXCEPTIONS: Readonly<Record<string, string>> = Object.fromEntries(
  EXCEPTIONS.map(({ sql, reason }) => [statementFingerprint(sql), reason]),
);
