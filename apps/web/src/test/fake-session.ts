import { vi } from 'vitest';
import type { SessionBackend, SessionIdentity } from '../lib/session/session-backend.js';

/** A fake session backend for component tests of the session layer and the sign-in screens. */
export const adaIdentity: SessionIdentity = {
  user: { uid: 'user-1', email: 'ada@school.test', displayName: 'Ada Lovelace', photoURL: null },
  emailVerified: true,
  twoStep: null,
};

const orgFeatures = { orgLibraries: false, studentPortfolios: false, visitLibraries: false };

/** A backend that answers "signed out" and fails nothing; tests override what they exercise. */
export function fakeBackend(overrides: Partial<SessionBackend> = {}): SessionBackend {
  return {
    getSession: vi.fn(() => Promise.resolve(null)),
    signInWithEmail: vi.fn(() => Promise.resolve(adaIdentity)),
    signInWithProvider: vi.fn(() => Promise.resolve(adaIdentity)),
    signInWithPasskey: vi.fn(() => Promise.resolve(adaIdentity)),
    register: vi.fn(() => Promise.resolve({ ...adaIdentity, emailVerified: false })),
    refreshToken: vi.fn(() => Promise.resolve(true)),
    openAdminSession: vi.fn(() => Promise.resolve()),
    completeTwoStep: vi.fn(() => Promise.resolve(adaIdentity)),
    logReauth: vi.fn(),
    signOut: vi.fn(() => Promise.resolve()),
    getOrganisations: vi.fn(() => Promise.resolve([{ id: 'org-1', name: 'Hillside School' }])),
    getOrganisation: vi.fn((id: string) => Promise.resolve({ id, name: `Organisation ${id}`, features: orgFeatures })),
    ...overrides,
  };
}
