import type { OrganisationSummary } from '@quire/core';
import type { CurrentOrganisation, SessionStatus, SessionUser } from './session-context.js';
import type { TwoStepHold } from './session-backend.js';

/** A sign-in failure as the screens show it: a stable code and the exact text of spec §8. */
export interface AuthError {
  code: string;
  message: string;
  /** Which attempt failed: a provider pop-up, or the session itself (organisations, expiry). */
  source?: 'google' | 'office365' | 'email' | 'passkey' | 'session';
}

/** Why nobody is signed in: the user asked, an error ended the session, or it was never (or no longer) there. */
export type SignOutReason = 'user' | 'error' | null;

type OrganisationsStatus = 'idle' | 'loading' | 'loaded' | 'error';

/** The auth state of spec §3 plus organisation loading (spec §4). */
export interface SessionState {
  status: SessionStatus;
  /** False until the first "is there a session?" answer arrives. */
  initialised: boolean;
  user: SessionUser | null;
  /** The e-mail of a signed-in but unverified account (spec: "unverified holds the e-mail"). */
  unverifiedEmail: string | null;
  /** True after a sign-in in this tab, false when the session was restored on load. */
  freshSignIn: boolean;
  error: AuthError | null;
  /** A provider pop-up sign-in under way. */
  pendingProvider: 'google' | 'office365' | null;
  signOutReason: SignOutReason;
  organisationsStatus: OrganisationsStatus;
  organisations: OrganisationSummary[];
  currentOrganisation: CurrentOrganisation | null;
}

export type SessionAction =
  | { type: 'restored'; user: SessionUser | null; emailVerified: boolean; twoStep: TwoStepHold }
  | { type: 'signed-in'; user: SessionUser | null; emailVerified: boolean; twoStep: TwoStepHold }
  /** A call was refused because of 2-step verification: the session is held back until it is dealt with. */
  | { type: 'two-step-held'; hold: Exclude<TwoStepHold, null> }
  | { type: 'signed-out'; reason: SignOutReason; error?: AuthError | null }
  | { type: 'provider-started'; provider: 'google' | 'office365' }
  | { type: 'failed'; error: AuthError }
  | { type: 'clear-error' }
  | { type: 'organisations-loading' }
  | { type: 'organisations-loaded'; organisations: OrganisationSummary[] }
  | { type: 'organisations-failed' }
  | { type: 'organisation-selected'; organisation: CurrentOrganisation };

export const initialSessionState: SessionState = {
  status: 'loading',
  initialised: false,
  user: null,
  unverifiedEmail: null,
  freshSignIn: false,
  error: null,
  pendingProvider: null,
  signOutReason: null,
  organisationsStatus: 'idle',
  organisations: [],
  currentOrganisation: null,
};

const signedOut: SessionState = { ...initialSessionState, status: 'signed-out', initialised: true };

export function sessionReducer(state: SessionState, action: SessionAction): SessionState {
  switch (action.type) {
    case 'restored':
    case 'signed-in': {
      if (!action.user) return signedOut;
      const verified = action.emailVerified;
      return {
        ...initialSessionState,
        initialised: true,
        status: verified ? (action.twoStep ?? 'signed-in') : 'unverified',
        user: action.user,
        unverifiedEmail: verified ? null : action.user.email,
        freshSignIn: action.type === 'signed-in',
      };
    }
    case 'two-step-held':
      // What was loaded for the console stays; it is asked again once the session may be used.
      return state.user ? { ...state, status: action.hold, organisationsStatus: state.organisationsStatus === 'loaded' ? 'loaded' : 'idle' } : state;
    case 'signed-out':
      return { ...signedOut, error: action.error ?? null, signOutReason: action.reason };
    case 'provider-started':
      return { ...state, pendingProvider: action.provider, error: null };
    case 'failed':
      return { ...state, error: action.error, pendingProvider: null };
    case 'clear-error':
      return state.error ? { ...state, error: null } : state;
    case 'organisations-loading':
      return { ...state, organisationsStatus: 'loading' };
    case 'organisations-loaded':
      return { ...state, organisationsStatus: 'loaded', organisations: action.organisations };
    case 'organisations-failed':
      return { ...state, organisationsStatus: 'error' };
    case 'organisation-selected':
      return { ...state, currentOrganisation: action.organisation };
  }
}
