import { genericOperationError, libraryMessages, teacherMessages, withServerMessages, type ErrorCode, type LibrariesOnArchive } from '@quire/core';
import { hasErrorCode, isApiError } from '../../../lib/api/index.js';
import { useRemoveLicenses } from '../../../lib/members/remove-licenses.js';
import { errorMessageOf } from '../../../lib/notify.js';
import { useArchiveLibraries } from '../api/archive-libraries.js';
import { useArchiveUser } from '../api/archive-user.js';
import { useCheckDelete } from '../api/check-delete.js';
import { useReassignLibraries } from '../api/reassign-libraries.js';
import type { TransferChoice, TargetOption } from '../model/transfer-choices.js';
import { archiveErrorText, reassignErrorText } from '../model/library-errors.js';
import type { TeacherRef } from '../model/teacher-ref.js';

/** A step that failed, with the §8 text to show; null when it succeeded. */
export type RunResult = { ok: true } | { ok: false; message: string };

/** What the delete check said: who may go, who may not and why, and the §8 text when nobody may. */
export interface CheckResult {
  allowed: TeacherRef[];
  refused: Array<{ teacher: TeacherRef; reasons: string[] }>;
  message: string | null;
}

/** What happened to one teacher of the delete flow. */
export interface RemovalOutcome {
  teacher: TeacherRef;
  removed: boolean;
  /** Why not (the server's reason), empty when removed. */
  message: string;
  /** The §8 text of the failure: 'Error reassigning…' for a refused transfer, else 'Error deleting teacher…'. */
  text: string;
}

/** Codes of the transfer's refusals (the new owner), as opposed to the account's. */
const TRANSFER_CODES: ErrorCode[] = ['same_owner', 'target_pending', 'target_inactive', 'target_not_found'];

/** The calls of the wizard and the delete dialog, each turned into a §8 text on failure. */
export function useTransferRun(orgId: string, organisationName: string) {
  // Each call's hook reloads what it changed (api/).
  const archiveLibraries = useArchiveLibraries(orgId);
  const reassignLibraries = useReassignLibraries(orgId);
  const checkDelete = useCheckDelete(orgId);
  const archiveUser = useArchiveUser(orgId, organisationName);
  const removeLicenses = useRemoveLicenses(orgId);

  /** Moves (or archives) every teacher's libraries, one teacher after another; stops at the first failure. */
  const transfer = async (teachers: TeacherRef[], choice: TransferChoice, target: TargetOption | null): Promise<RunResult> => {
    for (const teacher of teachers) {
      if (choice === 'archive') {
        try {
          await archiveLibraries.mutateAsync(teacher.id);
        } catch (error) {
          return { ok: false, message: archiveErrorText(error) || libraryMessages.archiveFailed };
        }
      } else if (target) {
        const to = choice === 'teacher' ? { type: 'teacher' as const, memberId: target.value } : { type: 'admin' as const, email: target.value };
        try {
          await reassignLibraries.mutateAsync({ teacherId: teacher.id, target: to });
        } catch (error) {
          return { ok: false, message: reassignErrorText(error) || libraryMessages.reassignFailed };
        }
      }
    }
    return { ok: true };
  };

  /** Asks whether each teacher may be deleted; those who may not are named with the reasons. */
  const check = async (teachers: TeacherRef[]): Promise<CheckResult> => {
    const allowed: TeacherRef[] = [];
    const refused: CheckResult['refused'] = [];
    for (const teacher of teachers) {
      try {
        const answer = await checkDelete.mutateAsync(teacher.id);
        if (answer.canDelete) allowed.push(teacher);
        else refused.push({ teacher, reasons: answer.reasons });
      } catch (error) {
        refused.push({ teacher, reasons: [errorMessageOf(error, '')].filter(Boolean) });
      }
    }
    const reasons = refused.flatMap(({ teacher, reasons: r }) => r.map((reason) => (teachers.length > 1 ? `${teacher.email}: ${reason}` : reason)));
    return { allowed, refused, message: refused.length ? withServerMessages(teacherMessages.deleteFailed, reasons) : null };
  };

  /**
   * Removes every teacher from the organisation, each in one call that also moves or closes their libraries
   * (one transaction on the server: a teacher is either fully removed or left as they were).
   */
  const remove = async (teachers: TeacherRef[], libraries?: LibrariesOnArchive): Promise<RemovalOutcome[]> => {
    const outcomes: RemovalOutcome[] = [];
    for (const teacher of teachers) {
      try {
        await archiveUser.mutateAsync({ teacherId: teacher.id, libraries });
        outcomes.push({ teacher, removed: true, message: '', text: '' });
      } catch (error) {
        const message = errorMessageOf(error, teacherMessages.deleteFailed);
        const text =
          isApiError(error) && hasErrorCode(error, ...TRANSFER_CODES) ? reassignErrorText(error) : withServerMessages(teacherMessages.deleteFailed, [errorMessageOf(error, '')]);
        outcomes.push({ teacher, removed: false, message, text });
      }
    }
    return outcomes;
  };

  /** 'Revoke premium license'. */
  const revoke = async (teacher: TeacherRef): Promise<RunResult> => {
    try {
      await removeLicenses.mutateAsync({ memberIds: [teacher.id] });
      return { ok: true };
    } catch (error) {
      return { ok: false, message: errorMessageOf(error, genericOperationError('removeLicenses')) };
    }
  };

  return { transfer, check, remove, revoke };
}
