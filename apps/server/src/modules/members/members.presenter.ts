import { libraryQuotaFromColumn, type Member } from '@quire/core';
import type { TeacherRow } from './teachers-list.repository.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A member as the API shows it (spec §3 Teacher, memberSchema of @quire/core), camelCase. */
export function presentMember(row: TeacherRow): Member {
  return {
    id: row.id,
    userId: row.user_id,
    email: row.email,
    displayName: row.display_name,
    role: row.role,
    license:
      row.license_id && row.book_quota !== null
        ? {
            id: row.license_id,
            name: row.license_name ?? '',
            bookQuota: row.book_quota,
            libraryQuota: libraryQuotaFromColumn(row.library_quota),
            applyToAll: row.apply_to_all ?? false,
          }
        : null,
    pending: row.pending,
    badges: { calevel1: iso(row.calevel1_at), calevel2: iso(row.calevel2_at) },
    certifying: row.certifying,
    isAmbassador: row.is_ambassador,
    isStudent: row.is_student,
    revokedAt: iso(row.revoked_at),
    signedUpAt: iso(row.signed_up_at),
    rosterRole: row.roster_role ?? null,
    // A district's list names each teacher's organisation (its School column).
    ...(row.organisation_name != null ? { organisation: { id: row.organisation_id, name: row.organisation_name } } : {}),
  };
}
