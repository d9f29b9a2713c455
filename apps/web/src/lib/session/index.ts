/** The console's session: who is signed in, which organisation is current, and the sign-in flows. */
export {
  SessionContext,
  useSession,
  type SessionValue,
  type SessionStatus,
  type SessionUser,
  type CurrentOrganisation,
} from './session-context.js';
export { SessionProvider, SessionControlsContext, useSessionControls, type SessionControls } from './session-provider.js';
export { AuthFailure, type SessionBackend, type SessionIdentity } from './session-backend.js';
export type { AuthError, SessionState, OrganisationsStatus, SignOutReason } from './session-reducer.js';
export { registerSessionStore } from './session-stores.js';
export { REMEMBERED_ORGANISATION_KEY, getRememberedOrganisation } from './remembered-organisation.js';
export { getActingUserId, setActingUserId } from './acting-user.js';
export { TOKEN_REFRESH_INTERVAL_MS } from './use-token-refresh.js';
export {
  SIGN_IN_POPUP_NAME,
  isSignInPopup,
  readPopupOutcome,
  reportPopupOutcome,
  type PopupOutcome,
} from './popup-sign-in.js';
export { getIdToken } from './http-session-backend.js';
export { authFailureToError, shownAuthMessage } from './auth-messages.js';
