import { genericOperationError, libraryMessages, teacherMessages, withServerMessages } from '@quire/core';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessageOf } from '../../../lib/notify.js';
import { archiveUser, checkDelete, revokeLicense } from '../api/delete-account.js';
import { archiveLibraries, reassignLibraries } from '../api/transfer-libraries.js';
import type { TransferChoice, TargetOption } from '../model/transfer-choices.js';
import { archiveErrorText, reassignErrorText } from '../model/library-errors.js';
import type { TeacherRef } from '../model/teacher-ref.js';

/** A step that failed, with the §8 text to show; null when it succeeded. */
export type RunResult = { ok: true } | { ok: false; message: string };

/** The calls of the wizard and the delete dialog, each turned into a §8 text on failure. */
export function useTransferRun(orgId: string, organisationName: string) {
  const queryClient = useQueryClient();
  const refreshLibraries = () => queryClient.invalidateQueries({ queryKey: ['teacher-libraries', orgId] });

  /** Moves (or archives) every teacher's libraries, one teacher after another; stops at the first failure. */
  const transfer = async (teachers: TeacherRef[], choice: TransferChoice, target: TargetOption | null): Promise<RunResult> => {
    try {
      for (const teacher of teachers) {
        if (choice === 'archive') {
          await archiveLibraries(orgId, teacher.id).catch((error: unknown) => {
            throw new Error(archiveErrorText(error));
          });
        } else if (target) {
          const to = choice === 'teacher' ? { type: 'teacher' as const, memberId: target.value } : { type: 'admin' as const, email: target.value };
          await reassignLibraries(orgId, teacher.id, to).catch((error: unknown) => {
            throw new Error(reassignErrorText(error));
          });
        }
      }
      return { ok: true };
    } catch (error) {
      return { ok: false, message: errorMessageOf(error, choice === 'archive' ? libraryMessages.archiveFailed : libraryMessages.reassignFailed) };
    } finally {
      void refreshLibraries();
    }
  };

  /** Asks whether every teacher may be deleted; the reasons why not are appended to 'Error deleting teacher'. */
  const check = async (teachers: TeacherRef[]): Promise<RunResult> => {
    const reasons: string[] = [];
    for (const teacher of teachers) {
      try {
        const answer = await checkDelete(orgId, teacher.id);
        if (!answer.canDelete) reasons.push(...answer.reasons.map((r) => (teachers.length > 1 ? `${teacher.email}: ${r}` : r)));
      } catch (error) {
        reasons.push(errorMessageOf(error, ''));
      }
    }
    return reasons.length ? { ok: false, message: withServerMessages(teacherMessages.deleteFailed, reasons) } : { ok: true };
  };

  /** Removes every teacher from the organisation; returns the ids removed and the failure text, if any. */
  const remove = async (teachers: TeacherRef[]): Promise<{ removed: string[]; failure: string | null }> => {
    const removed: string[] = [];
    const messages: string[] = [];
    for (const teacher of teachers) {
      try {
        await archiveUser(orgId, organisationName, teacher.id);
        removed.push(teacher.id);
      } catch (error) {
        const message = errorMessageOf(error, '');
        messages.push(teachers.length > 1 && message ? `${teacher.email}: ${message}` : message);
      }
    }
    void refreshLibraries();
    return { removed, failure: messages.length ? withServerMessages(teacherMessages.deleteFailed, messages) : null };
  };

  /** 'Revoke premium license'. */
  const revoke = async (teacher: TeacherRef): Promise<RunResult> => {
    try {
      await revokeLicense(orgId, teacher.id);
      return { ok: true };
    } catch (error) {
      return { ok: false, message: errorMessageOf(error, genericOperationError('removeLicenses')) };
    }
  };

  return { transfer, check, remove, revoke };
}
