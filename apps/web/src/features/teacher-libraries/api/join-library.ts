import { apiRequest, serviceUrl } from '../../../lib/api/index.js';
import { joinResultSchema, type JoinResult } from './library-schemas.js';

export interface JoinLibraryInput {
  orgId: string;
  teacherId: string;
  libraryId: string;
  /** The reason sent to the library owner; left out on a repeat visit. */
  reason?: string;
}

/**
 * POST {api}/{teacherId}/admins/{libraryId}/join {reason}: answers a single-use sign-in token and the link to the
 * library in the product app that carries it (spec §4), so the product signs the admin in.
 */
export function joinLibrary({ orgId, teacherId, libraryId, reason }: JoinLibraryInput): Promise<JoinResult> {
  return apiRequest(serviceUrl('api', '', teacherId, 'admins', libraryId, 'join'), {
    method: 'POST',
    json: { organisationId: orgId, ...(reason ? { reason } : {}) },
    schema: joinResultSchema,
  });
}
