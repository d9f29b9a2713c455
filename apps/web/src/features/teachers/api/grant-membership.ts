import { membersChange } from '../../../lib/members/members-change.js';

const GRANT_MEMBERSHIP = /* GraphQL */ `
  mutation grantMembership($orgId: ID!, $memberIds: [ID!]!) {
    grantMembership(orgId: $orgId, memberIds: $memberIds) { memberIds }
  }
`;

/** Mark as Active: removed teachers come back, without a licence. */
const grantMembershipChange = membersChange('grantMembership', GRANT_MEMBERSHIP);
export const grantMembership = grantMembershipChange.call;
export const useGrantMembership = grantMembershipChange.useCall;
