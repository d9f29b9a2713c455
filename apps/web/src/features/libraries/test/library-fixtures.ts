import { buildSession } from '../../../test/render.js';
import { orgAccess, type FakeHandler } from '../../../test/fake-fetch.js';
import type { Library } from '@quire/core';
import type { TeacherRef } from '../model/teacher-ref.js';
import { buildMember } from '../../../test/fixtures.js';

/** The teacher under management in these tests. */
export const kim: TeacherRef = {
  id: 'm-kim',
  userId: 'u-kim',
  email: 'kim@school.test',
  displayName: 'Kim Park',
  role: 600,
  pending: false,
  license: { id: 'lic-premium', name: 'Premium' },
};

/** The signed-in admin (buildSession's Ada) as a teacher of the organisation. */
export const ada: TeacherRef = { ...kim, id: 'm-ada', userId: 'user-1', email: 'ada@school.test', displayName: 'Ada Lovelace' };

export function library(overrides: Partial<Library> & Pick<Library, 'id' | 'name'>): Library {
  return { bookCount: 3, userCount: 2, role: 100, isPrivate: false, isOwner: true, ownerId: kim.id, joined: false, archivedAt: null, ...overrides };
}

export function session(features: { orgLibraries?: boolean; visitLibraries?: boolean } = {}) {
  return buildSession({
    currentOrganisation: {
      id: 'org-1',
      name: 'Hillside School',
      features: { orgLibraries: features.orgLibraries ?? true, studentPortfolios: false, visitLibraries: features.visitLibraries ?? true },
    },
  });
}

/** The organisation as the library screens read it, and Ada's access to it (an admin unless told otherwise). */
export function organisationRoutes(options: { visitLibraries?: boolean; access?: 'admin' | 'library-manager' } = {}): Record<string, FakeHandler> {
  return {
    'gql getOrganisationById': {
      body: { id: 'org-1', name: 'Hillside School', features: { orgLibraries: true, visitLibraries: options.visitLibraries ?? true } },
    },
    'gql getOrganisationAccess': orgAccess(options.access ?? 'admin'),
  };
}

/** Teachers the target picker can find: Kim herself, a pending teacher and two who may receive. */
export const targetTeachersRoute: FakeHandler = () => ({
  body: {
    members: [
      buildMember({ id: kim.id, email: kim.email, displayName: kim.displayName, pending: false }),
      buildMember({ id: 'm-pat', email: 'pat@school.test', displayName: 'Pat Pending', pending: true, role: -600 }),
      buildMember({ id: 'm-lee', email: 'lee@school.test', displayName: 'Lee Chan', pending: false }),
      buildMember({ id: 'm-sam', email: 'sam@school.test', displayName: '', pending: false }),
    ],
    total: 4,
  },
});

export const targetAdminsRoute: FakeHandler = () => ({
  body: {
    data: {
      getAdmins: {
        admins: [
          { email: 'ada@school.test', displayName: 'Ada Lovelace', memberId: 'm-ada', isYou: true },
          { email: 'it@school.test', displayName: null, memberId: null, isYou: false },
          { email: kim.email, displayName: kim.displayName, memberId: kim.id, isYou: false },
        ],
      },
    },
  },
});

/** The server's answers to the library calls, whole (the test fake checks them against their contracts). */
export const answers = {
  userArchived: (memberId: string, libraries: { transferred?: string[]; archived?: string[] } = {}) => ({
    memberId,
    transferredLibraryIds: libraries.transferred ?? [],
    revokedAt: '2024-03-05T00:00:00.000Z',
    archivedLibraryIds: libraries.archived ?? [],
    freedLicenseId: null,
  }),
  reassigned: (libraryIds: string[], newOwner: { memberId: string; email: string } = { memberId: 'm-lee', email: 'lee@school.test' }) => ({
    libraryIds,
    newOwner: { ...newOwner, displayName: '', createdMember: false },
  }),
  librariesArchived: (libraryIds: string[]) => ({ libraryIds, archivedAt: '2024-03-05T00:00:00.000Z' }),
  joined: (token: string) => ({ token, expiresAt: '2024-03-05T00:05:00.000Z', url: `https://app.quire.test/library/l-sci?token=${token}&organisationId=org-1` }),
};
