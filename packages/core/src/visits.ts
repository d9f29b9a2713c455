import { VISIT_REASON_MAX } from './constants.js';
import { validationMessages } from './messages.js';

/** The six preset reasons for visiting a teacher's library (§5), and 'Other' with free text. */
export const VISIT_REASONS = [
  'Check in on teacher activity',
  'Check in on student activity',
  'Help teacher with content',
  'Check library settings',
  'Add or remove library teachers/students',
  'Provide teacher support',
] as const;
export const VISIT_REASON_OTHER = 'Other';

/** The reason sent to the library owner: the preset, or the trimmed free text for 'Other'. */
export function visitReasonText(choice: string, otherText = ''): string {
  return choice === VISIT_REASON_OTHER ? otherText.trim() : choice;
}

/** null when the choice (and for 'Other' its text) is acceptable, else the text to show. */
export function validateVisitReason(choice: string | null | undefined, otherText = ''): string | null {
  if (!choice) return validationMessages.visitReasonRequired;
  if (choice === VISIT_REASON_OTHER) {
    const text = otherText.trim();
    if (!text) return validationMessages.visitReasonRequired;
    return text.length > VISIT_REASON_MAX ? validationMessages.visitReasonTooLong : null;
  }
  return (VISIT_REASONS as readonly string[]).includes(choice) ? null : validationMessages.visitReasonRequired;
}
