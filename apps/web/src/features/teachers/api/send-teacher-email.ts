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

/** Sends the e-mail; nothing cached changes (the mail goes out as a job). */
export function useSendTeacherEmail(orgId: string, callbacks: MutationCallbacks<SendEmailResult, SendTeacherEmail> = {}) {
  return useMutation({ mutationFn: (email: SendTeacherEmail) => sendTeacherEmail(orgId, email), ...callbacks });
}
