import { membersChange } from './members-change.js';

/**
 * removeLicenses(orgId, memberIds): the teachers lose their licence (never in a domain organisation). Shared by
 * the Teachers screen ('Remove license') and the library screens ('Revoke premium license').
 */
export const { useCall: useRemoveLicenses } = membersChange('removeLicenses');
