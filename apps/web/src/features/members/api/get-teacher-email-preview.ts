import { queryOptions } from '@tanstack/react-query';
import { teacherEmailPreviewSchema, type TeacherEmailKind } from '@quire/core';
import { graphqlRequest } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

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

/**
 * The fixed subject and the default message of the e-mail; with a draft, also the whole e-mail the first
 * recipient receives (`plain`: message, licence sentence, date and link), as the server composes it.
 */
export function teacherEmailPreviewQueryOptions(orgId: string, kind: TeacherEmailKind, memberIds: string[], draft?: TeacherEmailDraft) {
  return queryOptions({
    queryKey: queryKeys.teacherEmailPreview(orgId, kind, memberIds, draft ?? null),
    queryFn: ({ signal }) =>
      graphqlRequest({
        query: PREVIEW,
        variables: { orgId, kind, members: memberIds, ...(draft ? { message: draft.message, date: draft.date || null } : {}) },
        field: 'teacherEmailPreview',
        schema: teacherEmailPreviewSchema,
        signal,
      }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
