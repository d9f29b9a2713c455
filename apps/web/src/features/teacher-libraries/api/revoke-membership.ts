import { membersChange } from '../../../lib/members/members-change.js';

const REVOKE_MEMBERSHIP = /* GraphQL */ `
  mutation revokeMembership($orgId: ID!, $memberIds: [ID!]!) {
    revokeMembership(orgId: $orgId, memberIds: $memberIds) { memberIds }
  }
`;

/** revokeMembership(orgId, memberIds): pending teachers leave the organisation (they have no libraries). */
const revokeMembershipChange = membersChange('revokeMembership', REVOKE_MEMBERSHIP);
export const revokeMembership = revokeMembershipChange.call;
export const useRevokeMembership = revokeMembershipChange.useCall;
