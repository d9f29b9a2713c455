import { QueryClientContext } from '@tanstack/react-query';
import { createContext, startTransition, useCallback, useContext, useEffect, useMemo, useReducer, useRef, type ReactNode } from 'react';
import { setActingUserId } from './acting-user.js';
import type { SessionBackend, SessionIdentity } from './session-backend.js';
import { SessionContext, type SessionValue } from './session-context.js';
import { initialSessionState, sessionReducer, type AuthError, type SessionState, type SignOutReason } from './session-reducer.js';
import { rememberOrganisation } from './remembered-organisation.js';
import { useTokenRefresh } from './use-token-refresh.js';
import { httpSessionBackend } from './http-session-backend.js';
import { authFailureToError, NO_ACCOUNT_MESSAGE, ORGANISATIONS_FAILED_MESSAGE } from './auth-messages.js';
import { queryKeys } from '../query-keys.js';
import { reportPopupOutcomeEarly } from './popup-sign-in.js';
import { isApiError } from '../api/api-error.js';
import { hasErrorCode } from '../api/error-code.js';
import { isLeavingPage } from '../page-leaving.js';
import { GraphqlError } from '../api/graphql-client.js';

/**
 * A refusal because of 2-step verification: 401 two_step_required (the session has not passed its second step) or
 * 403 two_step_enrolment_required (the person must turn it on first, e.g. their organisation just started requiring
 * it). The guards then send the person to the second step or to the Security page.
 */
function twoStepHoldOf(error: unknown): 'second-step' | 'enrol' | null {
  if (hasErrorCode(error, 'two_step_required')) return 'second-step';
  if (hasErrorCode(error, 'two_step_enrolment_required')) return 'enrol';
  return null;
}

/** A 401 that means "no session" (not another user signed in in this browser). */
function isSessionLapse(error: unknown): boolean {
  if (isApiError(error)) return error.status === 401 && !hasErrorCode(error, 'acting_user_mismatch');
  if (error instanceof GraphqlError) return error.status === 401 || hasErrorCode(error, 'unauthorised');
  return false;
}

// Inside a provider pop-up sent back to the console, tell the opener before anything else loads.
reportPopupOutcomeEarly();

/** What the sign-in screens need beyond useSession(): the auth state and the sign-in flows. */
export interface SessionControls {
  state: SessionState;
  signInWithEmail(email: string, password: string): Promise<SessionIdentity>;
  signInWithProvider(provider: 'google' | 'office365'): Promise<SessionIdentity>;
  signInWithPasskey(): Promise<SessionIdentity>;
  register(payload: { email: string; displayName: string; password: string }): Promise<SessionIdentity>;
  /** Asks the server again (e.g. whether the e-mail has been verified meanwhile). */
  reload(): Promise<void>;
  /**
   * Makes an organisation current; resolves once its features are loaded. `background`: nothing waits on it (the
   * console is reopening the organisation a reload or a link names), so the screens it reveals render in a transition,
   * in slices the browser can interleave with other work instead of one long task.
   */
  chooseOrganisation(id: string, options?: { background?: boolean }): Promise<void>;
  /**
   * After the second step was passed or 2-step verification was turned on: asks the server where the session stands
   * now and opens the admin session, so the console loads.
   */
  completeTwoStep(): Promise<void>;
  /** Loads the organisation list (the picker calls it on mount). */
  loadOrganisations(): Promise<void>;
  clearError(): void;
}

export const SessionControlsContext = createContext<SessionControls | null>(null);

export function useSessionControls(): SessionControls {
  const value = useContext(SessionControlsContext);
  if (!value) throw new Error('useSessionControls must be used inside <SessionProvider>');
  return value;
}

interface SessionProviderProps {
  children: ReactNode;
  /** The servers; tests pass a fake. */
  backend?: SessionBackend;
}

/** Holds the signed-in user and the current organisation for the whole console. */
export function SessionProvider({ children, backend = httpSessionBackend }: SessionProviderProps) {
  const [state, dispatch] = useReducer(sessionReducer, initialSessionState);
  const queryClient = useContext(QueryClientContext);
  const stateRef = useRef(state);
  stateRef.current = state;
  // Loads started for an older user are ignored once someone else signs in (or out).
  const generation = useRef(0);

  const accept = useCallback((identity: SessionIdentity | null, type: 'restored' | 'signed-in') => {
    generation.current += 1;
    setActingUserId(identity?.user.uid ?? null);
    dispatch({ type, user: identity?.user ?? null, emailVerified: identity?.emailVerified ?? false, twoStep: identity?.twoStep ?? null });
  }, []);

  const clearClientState = useCallback(() => {
    generation.current += 1;
    rememberOrganisation(null);
    // The console configuration is not the user's: keep it, so the sign-in screens need not reload it.
    const config = queryClient?.getQueryData(queryKeys.consoleConfig);
    queryClient?.clear();
    if (config) queryClient?.setQueryData(queryKeys.consoleConfig, config);
    setActingUserId(null);
  }, [queryClient]);

  const endSession = useCallback(
    async (error: AuthError | null, reason: SignOutReason = error ? 'error' : 'user') => {
      // The browser forgets the user even when the server cannot be told.
      await backend.signOut().catch(() => undefined);
      clearClientState();
      dispatch({ type: 'signed-out', error, reason });
    },
    [backend, clearClientState],
  );

  const chooseOrganisation = useCallback(
    async (id: string, options?: { background?: boolean }) => {
      const started = generation.current;
      const organisation = await backend.getOrganisation(id);
      if (started !== generation.current) return;
      rememberOrganisation(organisation.id);
      const select = () => dispatch({ type: 'organisation-selected', organisation });
      if (options?.background) startTransition(select);
      else select();
    },
    [backend],
  );

  // One load at a time: the provider and the picker both ask on arrival.
  const loading = useRef<Promise<void> | null>(null);
  const loadOrganisations = useCallback(() => {
    const load = async () => {
      const started = generation.current;
      dispatch({ type: 'organisations-loading' });
      let organisations;
      try {
        organisations = await backend.getOrganisations();
      } catch (error) {
        if (started !== generation.current) return;
        const hold = twoStepHoldOf(error);
        if (hold) {
          dispatch({ type: 'two-step-held', hold });
          return;
        }
        if (await isLeavingPage()) {
          // Cancelled by leaving the page, not refused: signing out now would sign the next page out too. Should this
          // page come back (the back/forward cache), it asks again.
          window.addEventListener('pageshow', () => void load(), { once: true });
          return;
        }
        dispatch({ type: 'organisations-failed' });
        await endSession({ code: 'organisations_failed', message: ORGANISATIONS_FAILED_MESSAGE, source: 'session' });
        return;
      }
      if (started !== generation.current) return;
      if (organisations.length === 0) {
        await endSession({ code: 'no_organisations', message: NO_ACCOUNT_MESSAGE, source: 'session' });
        return;
      }
      // One organisation is selected automatically, before the list counts as loaded, so the
      // guard never shows the picker for it.
      const only = organisations.length === 1 ? organisations[0] : undefined;
      if (only) await chooseOrganisation(only.id).catch(() => undefined);
      if (started === generation.current) dispatch({ type: 'organisations-loaded', organisations });
    };
    loading.current ??= load().finally(() => {
      loading.current = null;
    });
    return loading.current;
  }, [backend, chooseOrganisation, endSession]);

  // Is there a session? Asked once on load.
  useEffect(() => {
    let cancelled = false;
    backend
      .getSession()
      .catch(() => null)
      .then((identity) => {
        if (!cancelled) accept(identity, 'restored');
      });
    return () => {
      cancelled = true;
    };
  }, [backend, accept]);

  // The organisations fetch runs once a verified user (an auth token) is present.
  useEffect(() => {
    if (state.status === 'signed-in' && state.organisationsStatus === 'idle') void loadOrganisations();
  }, [state.status, state.organisationsStatus, loadOrganisations]);

  useTokenRefresh({
    // A session waiting for its second step gets no token (the server refuses it); one that must enrol does.
    active: state.status === 'signed-in' || state.status === 'unverified' || state.status === 'enrol',
    refresh: backend.refreshToken.bind(backend),
    probe: async () => (await backend.getSession().catch(() => null)) !== null,
    afterRefresh: backend.logReauth.bind(backend),
    onExpired: () => {
      clearClientState();
      dispatch({ type: 'signed-out', reason: null });
    },
  });

  // A 401 from any screen: the session may have lapsed. Renew it with the token refresh; when it has
  // truly ended, sign out (not by the user, so the guard sends the admin to /sign-in remembering the page).
  const renewing = useRef<Promise<void> | null>(null);
  useEffect(() => {
    if (!queryClient || (state.status !== 'signed-in' && state.status !== 'unverified' && state.status !== 'enrol')) return;
    const onError = (error: unknown) => {
      const hold = twoStepHoldOf(error);
      if (hold) {
        if (hold !== state.status) dispatch({ type: 'two-step-held', hold });
        return;
      }
      if (!isSessionLapse(error)) return;
      renewing.current ??= (async () => {
        const ok = await backend.refreshToken().catch(() => null);
        if (ok === true) {
          backend.logReauth();
          void queryClient.invalidateQueries({ predicate: (query) => query.state.status === 'error' });
        } else if (ok === false) {
          clearClientState();
          dispatch({ type: 'signed-out', reason: null });
        }
      })().finally(() => {
        renewing.current = null;
      });
    };
    const unsubscribeQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') onError(event.action.error);
    });
    const unsubscribeMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') onError(event.action.error);
    });
    return () => {
      unsubscribeQueries();
      unsubscribeMutations();
    };
  }, [queryClient, state.status, backend, clearClientState]);

  const signInWith = useCallback(
    async (source: NonNullable<AuthError['source']>, attempt: () => Promise<SessionIdentity>) => {
      // The attempt starts before any await: a provider pop-up must open inside the click.
      const running = attempt();
      dispatch(source === 'google' || source === 'office365' ? { type: 'provider-started', provider: source } : { type: 'clear-error' });
      try {
        const identity = await running;
        accept(identity, 'signed-in');
        return identity;
      } catch (error) {
        dispatch({ type: 'failed', error: { ...authFailureToError(error), source } });
        throw error;
      }
    },
    [accept],
  );

  const controls = useMemo<SessionControls>(
    () => ({
      state,
      signInWithEmail: (email, password) => signInWith('email', () => backend.signInWithEmail(email, password)),
      signInWithProvider: (provider) => signInWith(provider, () => backend.signInWithProvider(provider)),
      signInWithPasskey: () => signInWith('passkey', () => backend.signInWithPasskey()),
      register: (payload) => signInWith('email', () => backend.register(payload)),
      reload: async () => {
        const identity = await backend.getSession().catch(() => null);
        const current = stateRef.current;
        const verified = identity?.emailVerified ?? false;
        const status = !identity ? 'signed-out' : !verified ? 'unverified' : (identity.twoStep ?? 'signed-in');
        // Only a change of user, of verification or of 2-step state counts; otherwise keep what is loaded.
        if (identity?.user.uid === current.user?.uid && status === current.status) return;
        if (identity && verified) await backend.openAdminSession().catch(() => undefined);
        accept(identity, 'signed-in');
      },
      completeTwoStep: async () => {
        const identity = await backend.completeTwoStep();
        // A session sent to enrolment from the console goes back to it as it was restored, without the picker.
        accept(identity, stateRef.current.freshSignIn || stateRef.current.status === 'second-step' ? 'signed-in' : 'restored');
      },
      chooseOrganisation,
      loadOrganisations,
      clearError: () => dispatch({ type: 'clear-error' }),
    }),
    [state, backend, signInWith, accept, chooseOrganisation, loadOrganisations],
  );

  const session = useMemo<SessionValue>(
    () => ({
      status: state.status,
      user: state.user,
      organisations: state.organisations,
      currentOrganisation: state.currentOrganisation,
      selectOrganisation: (id) => void chooseOrganisation(id).catch(() => undefined),
      signOut: () => endSession(null),
    }),
    [state.status, state.user, state.organisations, state.currentOrganisation, chooseOrganisation, endSession],
  );

  return (
    <SessionContext.Provider value={session}>
      <SessionControlsContext.Provider value={controls}>{children}</SessionControlsContext.Provider>
    </SessionContext.Provider>
  );
}
