/**
 * Licence choices while importing teachers (§5): a licence is offered only when some are available,
 * can be ticked only while some remain, and is granted in list order up to what is available.
 */

/** 'Select all' appears when the available licences cover every entry. */
export function showSelectAll(availableCount: number, entryCount: number): boolean {
  return entryCount > 0 && availableCount >= entryCount;
}

/** An entry's licence box can be ticked while licences remain; a ticked box can always be unticked. */
export function canTickLicense(availableCount: number, tickedCount: number, isTicked: boolean): boolean {
  return isTicked || tickedCount < availableCount;
}

export interface LicenseRequest {
  email: string;
  licenseId: string;
}

/** Grants requests in order while each licence has seats left; the rest are reported, not granted. */
export function grantInOrder(
  requests: readonly LicenseRequest[],
  availableByLicense: ReadonlyMap<string, number>,
): { granted: LicenseRequest[]; notGranted: LicenseRequest[] } {
  const left = new Map(availableByLicense);
  const granted: LicenseRequest[] = [];
  const notGranted: LicenseRequest[] = [];
  for (const request of requests) {
    const seats = left.get(request.licenseId) ?? 0;
    if (seats > 0) {
      left.set(request.licenseId, seats - 1);
      granted.push(request);
    } else {
      notGranted.push(request);
    }
  }
  return { granted, notGranted };
}
