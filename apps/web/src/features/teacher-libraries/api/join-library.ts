import { apiRequest, serviceUrl } from '../../../lib/api/index.js';
import { joinResultSchema, type JoinResult } from './library-schemas.js';

export interface JoinLibraryInput {
  orgId: string;
  teacherId: string;
  libraryId: string;
  /** The reason sent to the library owner; left out on a repeat visit. */
  reason?: string;
}

/** POST {api}/{teacherId}/admins/{libraryId}/join {reason}: answers a single-use token. */
export function joinLibrary({ orgId, teacherId, libraryId, reason }: JoinLibraryInput): Promise<JoinResult> {
  return apiRequest(serviceUrl('api', '', teacherId, 'admins', libraryId, 'join'), {
    method: 'POST',
    json: { organisationId: orgId, ...(reason ? { reason } : {}) },
    schema: joinResultSchema,
  });
}

/** The sign-in-with-token link that opens the library in the product's app (exchanged once by the server). */
export function visitLink(token: string): string {
  return serviceUrl('api', '/library-visit', token);
}
