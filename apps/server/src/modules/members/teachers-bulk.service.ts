import { selectionChangedMessage, type TeacherBulkAction, type TeacherBulkResult } from '@quire/core';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { appError } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import { assignLicenseIn, removeLicensesIn, requireLicenseChange } from '../licenses/licenses.service.js';
import { lockTeacherIds } from './teachers-list.repository.js';

/**
 * A licence change for every active teacher matching the Teachers list's filters ('Select all n teachers').
 * One transaction: the matching rows are locked, counted against what the admin saw, and changed
 * by the licence rules of PUT …/licenses/{licenseId} — all of them, or, on any refusal, none.
 *
 * On a district's list (view 'district') each teacher is changed in their own organisation, by its rules (a domain
 * school refuses), and audited there. Licences belong to one organisation: the district's own licences go only to the
 * district's own teachers, so assigning one to a selection that holds a school's teacher is refused
 * (license_other_schools) and nothing changes.
 */
export async function runTeacherBulkAction(
  db: Kysely<DB>,
  actor: Actor,
  input: { organisationId: string; action: TeacherBulkAction },
): Promise<TeacherBulkResult> {
  const { organisationId, action } = input;
  await requireLicenseChange(db, actor, organisationId);
  const { filter, expectedCount } = action.selection;
  return db.transaction().execute(async (trx) => {
    const matched = await lockTeacherIds(trx, { organisationId, status: 'active', ...filter });
    if (matched.length !== expectedCount) {
      throw appError('selection_changed', { message: selectionChangedMessage(expectedCount, matched.length), details: { matching: matched.length } });
    }
    const auditDetails = { selection: { filter, count: matched.length } };
    const memberIds = matched.map((m) => m.id);
    if (action.action === 'assign-license') {
      if (matched.some((m) => m.organisationId !== organisationId)) throw appError('license_other_schools');
      const result = await assignLicenseIn(trx, actor, { organisationId, licenseId: action.licenseId, memberIds, auditDetails });
      return { action: action.action, matched: memberIds.length, changed: result.assignedMemberIds.length, allocated: result.allocated, available: result.available };
    }
    const byOrganisation = new Map<string, string[]>();
    for (const m of matched) byOrganisation.set(m.organisationId, [...(byOrganisation.get(m.organisationId) ?? []), m.id]);
    let changed = 0;
    for (const [schoolId, ids] of [...byOrganisation].sort(([a], [b]) => a.localeCompare(b))) {
      // The school's own rule (admin there, never a domain organisation); the district's was checked above.
      if (schoolId !== organisationId) await requireLicenseChange(trx, actor, schoolId);
      const result = await removeLicensesIn(trx, actor, { organisationId: schoolId, memberIds: ids, auditDetails });
      changed += result.memberIds.length;
    }
    return { action: action.action, matched: memberIds.length, changed };
  });
}
