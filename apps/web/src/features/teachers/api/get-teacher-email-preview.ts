import { queryOptions } from '@tanstack/react-query';
import { teacherEmailPreviewSchema, type TeacherEmailKind } from '@quire/core';
import { graphqlRequest } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

const PREVIEW = /* GraphQL */ `
  query teacherEmailPreview($orgId: ID!, $kind: TeacherEmailKind!, $members: [ID!]!) {
    teacherEmailPreview(orgId: $orgId, kind: $kind, members: $members) { subject defaultMessage plain recipients errors }
  }
`;

/** The fixed subject and the default message of the e-mail (the server composes the rest). */
export function teacherEmailPreviewQueryOptions(orgId: string, kind: TeacherEmailKind, memberIds: string[]) {
  return queryOptions({
    queryKey: queryKeys.teacherEmailPreview(orgId, kind, memberIds),
    queryFn: ({ signal }) =>
      graphqlRequest({ query: PREVIEW, variables: { orgId, kind, members: memberIds }, field: 'teacherEmailPreview', schema: teacherEmailPreviewSchema, signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
