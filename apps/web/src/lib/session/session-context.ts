import { createContext, useContext } from 'react';
import type { Organisation, OrganisationSummary } from '@quire/core';

/**
 * Where the session stands: restoring on load, nobody signed in, signed in but e-mail unverified, signed in but
 * waiting for the second step of 2-step verification, signed in but required to turn 2-step verification on first,
 * or signed in.
 */
export type SessionStatus = 'loading' | 'signed-out' | 'unverified' | 'second-step' | 'enrol' | 'signed-in';

/** The auth user of spec §3 (the identity provider's user record). */
export interface SessionUser {
  uid: string;
  email: string;
  displayName: string;
  photoURL: string | null;
}

/** The organisation the console works in: its name and feature flags. */
export type CurrentOrganisation = Pick<Organisation, 'id' | 'name' | 'features'>;

/** What every screen may read about the session (the interface agreed with the console shell). */
export interface SessionValue {
  status: SessionStatus;
  user: SessionUser | null;
  /** The organisations the user may administer, sorted by name (getOrganisations). */
  organisations: OrganisationSummary[];
  currentOrganisation: CurrentOrganisation | null;
  /** Makes the organisation current (loads its features) and remembers it under BC_ORG. */
  selectOrganisation(id: string): void;
  /** Server sign-out, then clears BC_ORG, the query cache, every client store and the acting user. */
  signOut(): Promise<void>;
}

/** Exported so tests (and storybook-like harnesses) can provide a fixed session. */
export const SessionContext = createContext<SessionValue | null>(null);

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionProvider>');
  return value;
}
