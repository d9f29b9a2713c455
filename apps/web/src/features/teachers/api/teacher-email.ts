import { queryOptions } from '@tanstack/react-query';
import { graphqlRequest } from '../../../lib/api/index.js';

/** The two e-mails the console sends teachers. */
export type TeacherEmailKind = 'WELCOME' | 'CERTIFICATION';

export interface TeacherEmailPreview {
  subject: string;
  defaultMessage: string;
  plain: string;
  recipients: number;
  errors: string[];
}

export interface SendEmailResult {
  sentTo: string[];
  errors: string[];
}

const PREVIEW = /* GraphQL */ `
  query teacherEmailPreview($orgId: ID!, $kind: TeacherEmailKind!, $members: [ID!]!, $message: String, $date: String) {
    teacherEmailPreview(orgId: $orgId, kind: $kind, members: $members, message: $message, date: $date) { subject defaultMessage plain recipients errors }
  }
`;

/** The admin's message and date, composed by the server into the whole e-mail. */
export interface TeacherEmailDraft {
  message: string;
  /** WELCOME: sign up by this day (YYYY-MM-DD). */
  date?: string;
}

const SEND_EMAIL = /* GraphQL */ `
  mutation sendEmail($orgId: ID!, $email: TeacherEmailInput!) {
    sendEmail(orgId: $orgId, email: $email) { sentTo errors }
  }
`;

/**
 * The fixed subject and the default message of the e-mail; with a draft, also the whole e-mail the first
 * recipient receives (`plain`: message, licence sentence, date and link), as the server composes it.
 */
export function teacherEmailPreviewQueryOptions(orgId: string, kind: TeacherEmailKind, memberIds: string[], draft?: TeacherEmailDraft) {
  return queryOptions({
    queryKey: ['teacher-email-preview', orgId, kind, memberIds, draft ?? null] as const,
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest<{ teacherEmailPreview: TeacherEmailPreview }>({
        query: PREVIEW,
        variables: { orgId, kind, members: memberIds, ...(draft ? { message: draft.message, date: draft.date || null } : {}) },
        signal,
      });
      return data.teacherEmailPreview;
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export interface SendTeacherEmail {
  kind: TeacherEmailKind;
  subject: string;
  message: string;
  memberIds: string[];
  /** WELCOME: sign up by this day (YYYY-MM-DD). */
  date?: string;
}

/** sendEmail(orgId, email {kind, subject, body.plain, members, date}). */
export async function sendTeacherEmail(orgId: string, email: SendTeacherEmail, idempotencyKey?: string): Promise<SendEmailResult> {
  const data = await graphqlRequest<{ sendEmail: SendEmailResult }>({
    query: SEND_EMAIL,
    idempotencyKey,
    variables: {
      orgId,
      email: { kind: email.kind, subject: email.subject, body: { plain: email.message }, members: email.memberIds, date: email.date || null },
    },
  });
  return data.sendEmail;
}
