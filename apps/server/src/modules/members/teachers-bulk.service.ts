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
    const memberIds = await lockTeacherIds(trx, { organisationId, status: 'active', ...filter });
    if (memberIds.length !== expectedCount) {
      throw appError('selection_changed', { message: selectionChangedMessage(expectedCount, memberIds.length), details: { matching: memberIds.length } });
    }
    const auditDetails = { selection: { filter, count: memberIds.length } };
    if (action.action === 'assign-license') {
      const result = await assignLicenseIn(trx, actor, { organisationId, licenseId: action.licenseId, memberIds, auditDetails });
      return { action: action.action, matched: memberIds.length, changed: result.assignedMemberIds.length, allocated: result.allocated, available: result.available };
    }
    const result = await removeLicensesIn(trx, actor, { organisationId, memberIds, auditDetails });
    return { action: action.action, matched: memberIds.length, changed: result.memberIds.length };
  });
}
