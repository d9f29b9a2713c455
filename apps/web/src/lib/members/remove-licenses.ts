import { membersChange } from './members-change.js';

const REMOVE_LICENSES = /* GraphQL */ `
  mutation removeLicenses($orgId: ID!, $memberIds: [ID!]!) {
    removeLicenses(orgId: $orgId, memberIds: $memberIds) { memberIds }
  }
`;

/**
 * removeLicenses(orgId, memberIds): the teachers lose their licence (never in a domain organisation). Shared by
 * the Teachers screen ('Remove license') and the library screens ('Revoke premium license').
 */
const removeLicensesChange = membersChange('removeLicenses', REMOVE_LICENSES);
export const removeLicenses = removeLicensesChange.call;
export const useRemoveLicenses = removeLicensesChange.useCall;
