import type { Member, OrganisationLicense } from '@quire/core';

/** Teachers and licences as the server sends them (the core contracts' types), for the component tests' fakes. */

export function buildLicense(overrides: Partial<OrganisationLicense> = {}): OrganisationLicense {
  return { id: 'lic-std', name: 'Standard', allocated: 3, quantity: 5, bookQuota: 40, libraryQuota: 5, applyToAll: false, ...overrides };
}

let counter = 0;
export function buildMember(overrides: Partial<Member> = {}): Member {
  counter += 1;
  return {
    id: `m-${counter}`,
    userId: `u-${counter}`,
    email: `teacher${counter}@school.test`,
    displayName: `Teacher ${counter}`,
    role: 600,
    license: null,
    pending: false,
    badges: { calevel1: null, calevel2: null },
    certifying: null,
    isAmbassador: false,
    rosterRole: null,
    isStudent: false,
    revokedAt: null,
    signedUpAt: '2024-01-01T00:00:00.000Z',
    ...overrides,
  };
}
