import type { TargetAdmin } from '../api/get-target-admins.js';
import type { TargetTeacher } from '../api/get-target-teachers.js';

/** The three choices of the Manage Teacher Libraries wizard and the delete dialog (spec §2, §4). */
export type TransferChoice = 'teacher' | 'admin' | 'archive';

export const TRANSFER_CHOICES: ReadonlyArray<{ value: TransferChoice; label: string; description?: string }> = [
  { value: 'teacher', label: 'Keep the account and assign libraries to a teacher' },
  { value: 'admin', label: 'Keep the account and assign libraries to an admin' },
  { value: 'archive', label: 'Archive and close libraries', description: 'Published books stay active but become uneditable.' },
];

/**
 * What happens to the private My Books (spec §3; issue 15): it is never handed over. In the Manage
 * wizard it stays with the teacher; when the account is deleted it is archived with the account.
 */
export function MY_BOOKS_STAYS_TEXT(subject: string, mode: 'manage' | 'delete'): string {
  return mode === 'delete'
    ? `My Books is private: it is never handed over. ${subject}’s My Books is archived with the account.`
    : `My Books is private: it is never handed over. ${subject}’s My Books stays with them when libraries are assigned.`;
}

/** Designed: the spec says the target is required but gives no text. */
export const targetRequiredText = {
  teacher: 'Please choose a teacher',
  admin: 'Please choose an admin',
} as const;

export interface TargetOption {
  /** Member id (teacher) or e-mail (admin): what the reassign call takes. */
  value: string;
  label: string;
}

/**
 * Teachers who may receive the libraries (spec §5): not a teacher being managed, never a pending one.
 * The label carries the e-mail so two teachers of the same name can be told apart.
 */
export function teacherTargetOptions(candidates: readonly TargetTeacher[], excludedIds: ReadonlySet<string>): TargetOption[] {
  return candidates
    .filter((t) => !t.pending && !excludedIds.has(t.id))
    .map((t) => ({ value: t.id, label: t.displayName.trim() ? `${t.displayName.trim()} (${t.email})` : t.email }));
}

/** Admins who may receive the libraries: not the teacher themselves; an admin who is also a teacher shows the teacher's name. */
export function adminTargetOptions(admins: readonly TargetAdmin[], excludedEmails: ReadonlySet<string>): TargetOption[] {
  return admins
    .filter((a) => !excludedEmails.has(a.email.toLowerCase()))
    .map((a) => ({ value: a.email, label: a.displayName?.trim() ? `${a.displayName.trim()} (${a.email})` : a.email }));
}

/** What a finished transfer says, as an info notice. */
export function transferDoneText(choice: TransferChoice): string {
  return choice === 'archive' ? 'Libraries archived' : 'Libraries transferred';
}

/** 'n teachers removed' after the delete flow. */
export function removedText(count: number): string {
  return count === 1 ? '1 teacher removed' : `${count} teachers removed`;
}
