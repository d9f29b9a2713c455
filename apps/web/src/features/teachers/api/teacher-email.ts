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
  query teacherEmailPreview($orgId: ID!, $kind: TeacherEmailKind!, $members: [ID!]!) {
    teacherEmailPreview(orgId: $orgId, kind: $kind, members: $members) { subject defaultMessage plain recipients errors }
  }
`;

const SEND_EMAIL = /* GraphQL */ `
  mutation sendEmail($orgId: ID!, $email: TeacherEmailInput!) {
    sendEmail(orgId: $orgId, email: $email) { sentTo errors }
  }
`;

/** The fixed subject and the default message of the e-mail (the server composes the rest). */
export function teacherEmailPreviewQueryOptions(orgId: string, kind: TeacherEmailKind, memberIds: string[]) {
  return queryOptions({
    queryKey: ['teacher-email-preview', orgId, kind, memberIds] as const,
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest<{ teacherEmailPreview: TeacherEmailPreview }>({
        query: PREVIEW,
        variables: { orgId, kind, members: memberIds },
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
