import { membersChange } from '../../../lib/members/members-change.js';

/** revokeMembership(orgId, memberIds): pending teachers leave the organisation (they have no libraries). */
export const { useCall: useRevokeMembership } = membersChange('revokeMembership');
