import type { TargetAdmin } from '../api/get-target-admins.js';
import type { TargetTeacher } from '../api/get-target-teachers.js';

/** The three choices of the Manage Teacher Libraries wizard and the delete dialog (spec §2, §4). */
export type TransferChoice = 'teacher' | 'admin' | 'archive';

export interface TransferChoiceOption {
  value: TransferChoice;
  label: string;
  description?: string;
}

/** The Manage Teacher Libraries wizard: the teacher keeps their account, only the libraries move. */
const TRANSFER_CHOICES: ReadonlyArray<TransferChoiceOption> = [
  { value: 'teacher', label: 'Keep the account and assign libraries to a teacher' },
  { value: 'admin', label: 'Keep the account and assign libraries to an admin' },
  { value: 'archive', label: 'Archive and close libraries', description: 'Published books stay active but become uneditable.' },
];

/**
 * The teacher delete dialog: the teacher leaves the organisation whatever is chosen, so its choices say
 * only what happens to the libraries. 'Keep the account…' before 'Permanently delete' contradicted
 * itself.
 */
const DELETE_TRANSFER_CHOICES: ReadonlyArray<TransferChoiceOption> = [
  { value: 'teacher', label: 'Assign libraries to a teacher' },
  { value: 'admin', label: 'Assign libraries to an admin' },
  { value: 'archive', label: 'Archive and close libraries', description: 'Published books stay active but become uneditable.' },
];

export function transferChoices(mode: 'manage' | 'delete'): ReadonlyArray<TransferChoiceOption> {
  return mode === 'delete' ? DELETE_TRANSFER_CHOICES : TRANSFER_CHOICES;
}

/**
 * Whose libraries: "Kim Park’s", or "the 2 teachers’" for several (never "2 teachers’s").
 * `subject` is the teacher's name when there is one teacher.
 */
export function possessive(subject: string, count: number): string {
  return count === 1 ? `${subject}’s` : `the ${count} teachers’`;
}

/**
 * What happens to the private My Books (spec §3): it is never handed over. In the Manage
 * wizard it stays with the teacher; when the account is deleted it is archived with the account.
 */
export function MY_BOOKS_STAYS_TEXT(subject: string, mode: 'manage' | 'delete', count = 1): string {
  if (count !== 1) {
    return mode === 'delete'
      ? 'My Books is private: it is never handed over. Each teacher’s My Books is archived with their account.'
      : 'My Books is private: it is never handed over. Each teacher’s My Books stays with them when libraries are assigned.';
  }
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
