import { membersChange } from '../../../lib/members/members-change.js';

/** grantMembership(orgId, memberIds), 'Mark as Active': removed teachers come back, without a licence. */
export const { useCall: useGrantMembership } = membersChange('grantMembership');
