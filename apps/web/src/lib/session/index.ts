/** The console's session: who is signed in, which organisation is current, and the sign-in flows. */
export { useSession, type SessionUser, type CurrentOrganisation } from './session-context.js';
export { SessionProvider, SessionControlsContext, useSessionControls } from './session-provider.js';
export { getRememberedOrganisation } from './remembered-organisation.js';
export { readPopupOutcome, reportPopupOutcome, type PopupOutcome } from './popup-sign-in.js';
export { authFailureToError, shownAuthMessage } from './auth-messages.js';
