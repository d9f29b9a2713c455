import { validationMessages } from './messages.js';

/** Welcome e-mail (§5): subject and message must be non-empty. */
export function validateWelcomeEmail(input: { subject: string; message: string }): {
  subject: string | null;
  message: string | null;
} {
  return {
    subject: input.subject.trim() ? null : validationMessages.subjectRequired,
    message: input.message.trim() ? null : validationMessages.messageRequired,
  };
}
