import {
  authErrorMessage,
  authMessages,
  office365ConflictMessage,
  office365Messages,
} from '@quire/core';
import { GOOGLE_ACCESS_REFUSED_CODE } from './auth-messages.js';
import { hasErrorCode, isApiError } from '../api/index.js';
import { graphqlRequest } from '../api/graphql-client.js';
import { lazyContract } from '../api/contract.js';

// Loaded with the first call, not in the first download (lib/api/contract.ts).
const organisationSummariesSchema = lazyContract((c) => c.organisationSummarySchema.array());
const organisationFeaturesSchema = lazyContract((c) => c.organisationSchema.pick({ id: true, name: true, features: true }));
import {
  fetchIdToken,
  fetchSession,
  openAdminSession,
  postAuthEmail,
  postReauth,
  postSignOut,
  signInWithCustomToken,
  fetchPasskeySignInOptions,
  postAuthPasskey,
} from './identity-api.js';
import { runPopupSignIn, type PopupOutcome, type PopupProvider } from './popup-sign-in.js';
import { AuthFailure, type SessionBackend, type SessionIdentity } from './session-backend.js';
import { setActingUserId } from './acting-user.js';
import { PasskeyCancelled, signWithPasskey } from '../webauthn.js';

/** The last ID token (it carries bc_orgs); kept in memory only. */
let idToken: string | null = null;

/** @internal */
export function getIdToken(): string | null {
  return idToken;
}

/** E-mail sign-in answers: 400 is 'Invalid email or password' unless a domain rule refused the address. */
function emailSignInFailure(error: unknown): AuthFailure {
  if (!isApiError(error)) return new AuthFailure('auth/internal-error', authErrorMessage('unknown'));
  if (hasErrorCode(error, 'auth/district-sso')) return new AuthFailure(error.code, authMessages.districtSso, error.status);
  if (hasErrorCode(error, 'auth/city-government')) return new AuthFailure(error.code, authMessages.cityGovernment, error.status);
  if (error.status === 400 && !hasErrorCode(error, 'auth/email-already-in-use')) {
    return new AuthFailure(error.code, authMessages.invalidCredentials, 400);
  }
  if (error.status === 403 && hasErrorCode(error, 'not_allowed_as_teacher')) {
    return new AuthFailure(error.code, authMessages.signUpAsAdminRefused, 403);
  }
  return new AuthFailure(error.code, authErrorMessage(error.code, error.message), error.status);
}

function providerIdsOf(body: unknown): string[] {
  if (!body || typeof body !== 'object') return [];
  const ids = (body as { providerIds?: unknown }).providerIds;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

/** After any sign-in: the ID token, then POST {api}/token to open the admin session. */
async function completeSignIn(identity: SessionIdentity): Promise<SessionIdentity> {
  if (!identity.emailVerified) return identity; // no organisation access until verified
  // No ID token before the second step: the second-step screen asks for one once it is passed.
  if (identity.twoStep === 'second-step') return identity;
  idToken = await fetchIdToken();
  if (!idToken) throw new AuthFailure('auth/internal-error', authErrorMessage('unknown'));
  try {
    await openAdminSession(idToken);
  } catch (error) {
    if (isApiError(error) && error.status === 401) {
      await postSignOut().catch(() => undefined);
      throw new AuthFailure(error.code, office365ConflictMessage(providerIdsOf(error.body)), 401);
    }
    throw new AuthFailure('auth/internal-error', authErrorMessage('unknown'));
  }
  return identity;
}

/** The text for a pop-up that ended without a session (spec §8 Google and Office 365 rows). @internal */
export async function popupFailure(provider: PopupProvider, outcome: Exclude<PopupOutcome, { ok: true }>): Promise<AuthFailure> {
  const { error, description } = outcome;
  if (error === 'account_not_linked') {
    // The server remembers which providers the e-mail is registered with; POST {api}/token names them.
    try {
      await openAdminSession('');
    } catch (answer) {
      if (isApiError(answer) && answer.status === 401) {
        return new AuthFailure('auth/account-exists-with-different-credential', office365ConflictMessage(providerIdsOf(answer.body)), 401);
      }
    }
    return new AuthFailure(error, office365Messages.alreadyRegistered, 401);
  }
  if (provider === 'google') {
    if (error === 'access_denied' || error === 'popup_closed' || error === 'popup_blocked') {
      return new AuthFailure(GOOGLE_ACCESS_REFUSED_CODE, authMessages.googleAccessRequired);
    }
    return new AuthFailure(error, authErrorMessage(error));
  }
  if (error === 'access_denied') return new AuthFailure(error, office365Messages.accessDenied);
  return new AuthFailure(error, description?.trim() || office365Messages.failed);
}

const GET_ORGANISATIONS = /* GraphQL */ `
  query getOrganisations {
    getOrganisations { id name parentId }
  }
`;

const GET_ORGANISATION_FEATURES = /* GraphQL */ `
  query getOrganisationById($id: ID!) {
    getOrganisationById(id: $id) { id name features { orgLibraries studentPortfolios visitLibraries } }
  }
`;

/** An answer asked for before the console's first render, and when. */
interface EarlyAnswer {
  at: number;
  answer: Promise<unknown>;
}

/** How long an early answer waits to be taken; after that the first caller asks again. */
const EARLY_ANSWER_MS = 10_000;
const earlyAnswers = new Map<string, EarlyAnswer>();

function askEarly(key: string, request: () => Promise<unknown>): Promise<unknown> {
  const asked = earlyAnswers.get(key);
  if (asked) return asked.answer;
  const answer = request();
  // Handled where it is taken; this only keeps an early failure from being reported as unhandled meanwhile.
  answer.catch(() => undefined);
  earlyAnswers.set(key, { at: Date.now(), answer });
  return answer;
}

/** The early answer for `key` if there is a fresh one (taken once), else a new request. */
function takeEarly<T>(key: string, request: () => Promise<T>): Promise<T> {
  const early = earlyAnswers.get(key);
  earlyAnswers.delete(key);
  return early && Date.now() - early.at < EARLY_ANSWER_MS ? (early.answer as Promise<T>) : request();
}

const listOrganisations = () => graphqlRequest({ query: GET_ORGANISATIONS, field: 'getOrganisations', schema: organisationSummariesSchema });
const fetchOrganisation = (id: string) =>
  graphqlRequest({ query: GET_ORGANISATION_FEATURES, variables: { id }, field: 'getOrganisationById', schema: organisationFeaturesSchema });

/**
 * Asks GET {identity}/get-session now, before the console's first render (app/early-requests.ts), and, as soon as it
 * answers with a verified user, that user's organisations and the organisation the path names: what the session
 * provider and the organisation guard ask next. Their first calls take these answers instead of asking again, once,
 * within EARLY_ANSWER_MS. A failure is theirs to handle, as before.
 */
export function askSessionEarly(orgId: string | null): void {
  const session = askEarly('session', fetchSession) as Promise<SessionIdentity | null>;
  session.then(
    (identity) => {
      if (!identity?.emailVerified || identity.twoStep) return;
      // The provider sets the same id when it takes this session; the early questions need it now (spec §6).
      setActingUserId(identity.user.uid);
      void askEarly('organisations', listOrganisations);
      if (orgId) void askEarly(`organisation:${orgId}`, () => fetchOrganisation(orgId));
    },
    () => undefined,
  );
}

/** The real servers, per docs/identity.md. */
export const httpSessionBackend: SessionBackend = {
  getSession: () => takeEarly('session', fetchSession),

  async signInWithEmail(email, password) {
    let token: string;
    try {
      token = (await postAuthEmail({ email, password })).token;
    } catch (error) {
      throw emailSignInFailure(error);
    }
    const identity = await signInWithCustomToken(token).catch((error: unknown) => {
      throw isApiError(error) ? new AuthFailure(error.code, authErrorMessage(error.code, error.message), error.status) : error;
    });
    return completeSignIn(identity);
  },

  async signInWithPasskey() {
    let token: string;
    try {
      token = (await postAuthPasskey(await signWithPasskey(await fetchPasskeySignInOptions()))).token;
    } catch (error) {
      if (error instanceof PasskeyCancelled) throw new AuthFailure('passkey_cancelled', error.message);
      if (isApiError(error) && error.status > 0 && error.status < 500) throw new AuthFailure(error.code, error.message, error.status);
      throw error;
    }
    return completeSignIn(await signInWithCustomToken(token));
  },

  async signInWithProvider(provider) {
    let outcome: PopupOutcome;
    try {
      outcome = await runPopupSignIn(provider);
    } catch {
      outcome = { ok: false, error: 'server_error', description: null };
    }
    if (!outcome.ok) throw await popupFailure(provider, outcome);
    const identity = await fetchSession();
    if (!identity) throw await popupFailure(provider, { ok: false, error: 'no_session', description: null });
    return completeSignIn(identity);
  },

  async register({ email, displayName, password }) {
    let token: string;
    try {
      token = (await postAuthEmail({ email, password, displayName, registrationAttempt: true })).token;
    } catch (error) {
      throw emailSignInFailure(error);
    }
    return completeSignIn(await signInWithCustomToken(token));
  },

  async completeTwoStep() {
    const identity = await fetchSession();
    if (!identity || identity.twoStep === 'second-step') return identity;
    return completeSignIn(identity);
  },

  async refreshToken() {
    idToken = await fetchIdToken();
    return idToken !== null;
  },

  async openAdminSession() {
    idToken = await fetchIdToken();
    if (idToken) await openAdminSession(idToken);
  },

  logReauth: postReauth,

  async signOut() {
    idToken = null;
    await postSignOut();
  },

  getOrganisations: () => takeEarly('organisations', listOrganisations),

  getOrganisation: (id) => takeEarly(`organisation:${id}`, () => fetchOrganisation(id)),
};
