import type { OrganisationSummary } from '@quire/core';
import type { CurrentOrganisation, SessionUser } from './session-context.js';

/** The signed-in identity as the server reports it. */
export interface SessionIdentity {
  user: SessionUser;
  emailVerified: boolean;
  /**
   * 2-step verification holding the session back: 'second-step' until a code (or recovery code) is given, 'enrol'
   * until the person turns it on (their organisation requires it); null when the session may be used.
   */
  twoStep: TwoStepHold;
}

/** Why a session opens nothing yet (docs/identity.md "The session rule"). */
export type TwoStepHold = 'second-step' | 'enrol' | null;

/**
 * Everything the session needs from the servers (identity, access log, organisation service).
 * The provider takes it as a prop so component tests can replace the network with a fake.
 */
export interface SessionBackend {
  /** Is there a session? null when signed out (no or expired __admin_session). */
  getSession(): Promise<SessionIdentity | null>;
  /** E-mail and password sign-in; throws an AuthFailure carrying a §8 code. */
  signInWithEmail(email: string, password: string): Promise<SessionIdentity>;
  /** A passkey alone (both steps of 2-step verification); throws an AuthFailure. */
  signInWithPasskey(): Promise<SessionIdentity>;
  /** Popup sign-in with an OpenID Connect provider; throws an AuthFailure. */
  signInWithProvider(provider: 'google' | 'office365'): Promise<SessionIdentity>;
  /** Creates an account and signs it in (unverified until the mail link is followed). */
  register(payload: { email: string; displayName: string; password: string }): Promise<SessionIdentity>;
  /** Renews the ID token and the session cookie; false when the session is over; throws on a network failure. */
  refreshToken(): Promise<boolean>;
  /**
   * After the second step was passed (POST {api}/two-step/verify) or 2-step verification was turned on: the ID token,
   * the admin session, and the identity as the server now sees it.
   */
  completeTwoStep(): Promise<SessionIdentity | null>;
  /** Opens the admin session (POST {api}/token) for a user whose e-mail was verified after sign-in. */
  openAdminSession(): Promise<void>;
  /** Tells the access log that the session was renewed (sent with keepalive). */
  logReauth(): void;
  signOut(): Promise<void>;
  getOrganisations(): Promise<OrganisationSummary[]>;
  getOrganisation(id: string): Promise<CurrentOrganisation>;
}

/** A sign-in failure: `code` is the server's (or popup's) code, `message` the text to show. */
export class AuthFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** HTTP status when the failure came from a server answer. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'AuthFailure';
  }
}
