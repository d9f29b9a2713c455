import { graphqlRequest } from '../../../lib/api/index.js';

interface MembersChanged {
  memberIds: string[];
}

const REMOVE_LICENSES = /* GraphQL */ `
  mutation removeLicenses($orgId: ID!, $memberIds: [ID!]!) {
    removeLicenses(orgId: $orgId, memberIds: $memberIds) { memberIds }
  }
`;

const GRANT_MEMBERSHIP = /* GraphQL */ `
  mutation grantMembership($orgId: ID!, $memberIds: [ID!]!) {
    grantMembership(orgId: $orgId, memberIds: $memberIds) { memberIds }
  }
`;

const UPDATE_MEMBERSHIP_ROLE = /* GraphQL */ `
  mutation updateMembershipRole($orgId: ID!, $userId: ID!, $role: Int!) {
    updateMembershipRole(orgId: $orgId, userId: $userId, role: $role) { memberId role }
  }
`;

/** Remove license: the teachers lose their licence (never in a domain organisation). */
export async function removeLicenses(orgId: string, memberIds: string[], idempotencyKey?: string): Promise<string[]> {
  const data = await graphqlRequest<{ removeLicenses: MembersChanged }>({ query: REMOVE_LICENSES, variables: { orgId, memberIds }, idempotencyKey });
  return data.removeLicenses.memberIds;
}

/** Mark as Active: removed teachers come back, without a licence. */
export async function grantMembership(orgId: string, memberIds: string[], idempotencyKey?: string): Promise<string[]> {
  const data = await graphqlRequest<{ grantMembership: MembersChanged }>({ query: GRANT_MEMBERSHIP, variables: { orgId, memberIds }, idempotencyKey });
  return data.grantMembership.memberIds;
}

/** Library manager (400) or teacher (600); userId is the member id. */
export async function updateMembershipRole(orgId: string, memberId: string, role: number): Promise<{ memberId: string; role: number }> {
  const data = await graphqlRequest<{ updateMembershipRole: { memberId: string; role: number } }>({
    query: UPDATE_MEMBERSHIP_ROLE,
    variables: { orgId, userId: memberId, role },
  });
  return data.updateMembershipRole;
}
