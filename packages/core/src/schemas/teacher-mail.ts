import { z } from 'zod';

/** The two e-mails the console sends teachers (docs/teachers-api.md): teacherEmailPreview and sendEmail. */
export type TeacherEmailKind = 'WELCOME' | 'CERTIFICATION';

/** teacherEmailPreview(orgId, kind, members, message?, date?). */
export const teacherEmailPreviewSchema = z.object({
  subject: z.string(),
  defaultMessage: z.string(),
  /** The body the first recipient would receive. */
  plain: z.string(),
  recipients: z.number(),
  errors: z.array(z.string()),
});
export type TeacherEmailPreview = z.infer<typeof teacherEmailPreviewSchema>;

/** sendEmail(orgId, email). */
export const sendEmailResultSchema = z.object({
  /** Members e-mailed. */
  sentTo: z.array(z.string()),
  /** Banner texts, e.g. students who were skipped; empty when all went well. */
  errors: z.array(z.string()),
});
export type SendEmailResult = z.infer<typeof sendEmailResultSchema>;
