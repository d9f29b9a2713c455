import { useMutation } from '@tanstack/react-query';
import { sendEmailResultSchema, type SendEmailResult, type TeacherEmailKind } from '@quire/core';
import { graphqlRequest, type MutationCallbacks } from '../../../lib/api/index.js';

const SEND_EMAIL = /* GraphQL */ `
  mutation sendEmail($orgId: ID!, $email: TeacherEmailInput!) {
    sendEmail(orgId: $orgId, email: $email) { sentTo errors }
  }
`;

export interface SendTeacherEmail {
  kind: TeacherEmailKind;
  subject: string;
  message: string;
  memberIds: string[];
  /** WELCOME: sign up by this day (YYYY-MM-DD). */
  date?: string;
  idempotencyKey?: string;
}

/** sendEmail(orgId, email {kind, subject, body.plain, members, date}). */
function sendTeacherEmail(orgId: string, email: SendTeacherEmail): Promise<SendEmailResult> {
  return graphqlRequest({
    query: SEND_EMAIL,
    idempotencyKey: email.idempotencyKey,
    variables: {
      orgId,
      email: { kind: email.kind, subject: email.subject, body: { plain: email.message }, members: email.memberIds, date: email.date || null },
    },
    field: 'sendEmail',
    schema: sendEmailResultSchema,
  });
}

/**
 * Sends the e-mail; nothing cached changes (the mail goes out as a job). On a district's list the recipients are
 * grouped by the organisation each belongs to (`groups`), and each organisation sends to its own, with its own key;
 * the answers are put together.
 */
export function useSendTeacherEmail(orgId: string, callbacks: MutationCallbacks<SendEmailResult, SendTeacherEmail & { groups?: Array<{ orgId: string; memberIds: string[] }> }> = {}) {
  return useMutation({
    mutationFn: async ({ groups, ...email }: SendTeacherEmail & { groups?: Array<{ orgId: string; memberIds: string[] }> }) => {
      const parts = groups ?? [{ orgId, memberIds: email.memberIds }];
      const sentTo: string[] = [];
      const errors: string[] = [];
      for (const part of parts) {
        const key = email.idempotencyKey && parts.length > 1 ? `${email.idempotencyKey}:${part.orgId}` : email.idempotencyKey;
        const result = await sendTeacherEmail(part.orgId, { ...email, memberIds: part.memberIds, idempotencyKey: key });
        sentTo.push(...result.sentTo);
        for (const error of result.errors) if (!errors.includes(error)) errors.push(error);
      }
      return { sentTo, errors };
    },
    ...callbacks,
  });
}
