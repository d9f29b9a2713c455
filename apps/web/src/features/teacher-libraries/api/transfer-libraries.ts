import { apiRequest, serviceUrl } from '../../../lib/api/index.js';

/** Who receives the libraries: a teacher (member id) or an admin (e-mail). */
export type TransferTarget = { type: 'teacher'; memberId: string } | { type: 'admin'; email: string };

/** PUT {api}/{teacherId}/admins/owner/all/{newOwnerId}/{type}: every library the teacher owns moves, in one transaction. */
export async function reassignLibraries(orgId: string, teacherId: string, target: TransferTarget): Promise<void> {
  const newOwnerId = target.type === 'teacher' ? target.memberId : target.email;
  await apiRequest(serviceUrl('api', '', teacherId, 'admins', 'owner', 'all', newOwnerId, target.type), {
    method: 'PUT',
    query: { organisationId: orgId },
  });
}

/** POST {api}/{teacherId}/admins/archive/all: the teacher's libraries close; published books stay readable. */
export async function archiveLibraries(orgId: string, teacherId: string): Promise<void> {
  await apiRequest(serviceUrl('api', '', teacherId, 'admins', 'archive', 'all'), {
    method: 'POST',
    json: { organisationId: orgId },
  });
}
