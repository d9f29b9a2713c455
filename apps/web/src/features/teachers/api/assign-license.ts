import { apiRequest, serviceUrl } from '../../../lib/api/index.js';

export interface LicenseAssignment {
  licenseId: string;
  assignedMemberIds: string[];
  allocated: number;
  available: number;
}

/**
 * PUT {payments}/v1/admin/organisations/{orgId}/licenses/{licenseId} with the member ids (spec §7).
 * A 409 carries the §5 text ('Not enough {n} book licenses available…'), shown as it is.
 */
export function assignLicense(orgId: string, licenseId: string, memberIds: string[], idempotencyKey?: string): Promise<LicenseAssignment> {
  return apiRequest<LicenseAssignment>(serviceUrl('payments', '/v1/admin/organisations', orgId, 'licenses', licenseId), {
    method: 'PUT',
    json: memberIds,
    idempotencyKey,
  });
}
