import { fetchSession, startOAuthSignIn } from './identity-api.js';

/** The window name of the provider pop-up; a console page loaded under it only reports back. */
const SIGN_IN_POPUP_NAME = 'quire-sign-in';
const CHANNEL = 'quire-sign-in';
const POLL_MS = 250;
/**
 * After the pop-up looks closed, how long a late report may still arrive: a cross-origin round trip
 * can cut the pop-up from its opener (Cross-Origin-Opener-Policy), so "closed" may only mean "out of
 * reach" while its page loads and reports. A pop-up the user really closed fails after this.
 */
const CLOSED_GRACE_MS = 12_000;
const SESSION_CHECK_MS = 1000;

export type PopupProvider = 'google' | 'office365';

/** How a pop-up sign-in ended: ok (the server set the session cookie) or the provider's error code. */
export type PopupOutcome = { ok: true } | { ok: false; error: string; description: string | null };

/** Where the server sends the pop-up back to (docs/identity.md: callbackURL / errorCallbackURL). */
function popupCallbackPaths(provider: PopupProvider): { done: string; failed: string } {
  const page = provider === 'office365' ? '/sign-in/office-365' : '/sign-in';
  return { done: `${page}?provider=done`, failed: `${page}?provider=failed` };
}

/** The outcome a callback URL carries, or null when the URL is not a pop-up callback. */
export function readPopupOutcome(search: string): PopupOutcome | null {
  const params = new URLSearchParams(search);
  const marker = params.get('provider');
  if (marker === 'done') return { ok: true };
  if (marker === 'failed') {
    return { ok: false, error: params.get('error') ?? 'unknown', description: params.get('error_description') };
  }
  return null;
}

/**
 * Called by the console page the pop-up lands on: hands the outcome to the opener and closes.
 * A BroadcastChannel is used because a cross-origin round trip can cut the pop-up from its opener
 * (Cross-Origin-Opener-Policy), after which the opener can no longer read the pop-up's address.
 */
export function reportPopupOutcome(outcome: PopupOutcome): void {
  try {
    const channel = new BroadcastChannel(CHANNEL);
    channel.postMessage(outcome);
    channel.close();
  } catch {
    // old browsers: the opener reads the address instead
  }
  window.close();
}

/**
 * Runs a provider sign-in in a pop-up. Must be called straight from a click (before any await),
 * or the browser blocks the pop-up.
 */
export async function runPopupSignIn(provider: PopupProvider): Promise<PopupOutcome> {
  const popup = window.open('', SIGN_IN_POPUP_NAME, 'popup,width=520,height=680');
  if (!popup) return { ok: false, error: 'popup_blocked', description: null };
  const paths = popupCallbackPaths(provider);
  let before: string | null;
  try {
    before = (await fetchSession().catch(() => null))?.user.uid ?? null;
    popup.location.href = await startOAuthSignIn(provider, paths.done, paths.failed);
  } catch (error) {
    popup.close();
    throw error;
  }
  return new Promise<PopupOutcome>((resolve) => {
    let channel: BroadcastChannel | null = null;
    let closedAt: number | null = null;
    let lastSessionCheck = 0;
    let done = false;
    const finish = (outcome: PopupOutcome) => {
      if (done) return;
      done = true;
      clearInterval(timer);
      channel?.close();
      if (!popup.closed) popup.close();
      resolve(outcome);
    };
    try {
      channel = new BroadcastChannel(CHANNEL);
      channel.onmessage = (event: MessageEvent<PopupOutcome>) => finish(event.data);
    } catch {
      channel = null;
    }
    const timer = setInterval(() => {
      if (popup.closed) {
        const now = Date.now();
        closedAt ??= now;
        if (now - closedAt > CLOSED_GRACE_MS) {
          finish({ ok: false, error: 'popup_closed', description: null });
          return;
        }
        // Out of reach: a new session set by the provider callback means the sign-in worked.
        if (now - lastSessionCheck >= SESSION_CHECK_MS) {
          lastSessionCheck = now;
          void fetchSession()
            .then((identity) => {
              if (identity && identity.user.uid !== before) finish({ ok: true });
            })
            .catch(() => undefined);
        }
        return;
      }
      try {
        if (popup.location.origin !== window.location.origin) return;
        const outcome = readPopupOutcome(popup.location.search);
        if (outcome) finish(outcome);
      } catch {
        // still on the provider's origin: unreadable until it sends the pop-up back
      }
    }, POLL_MS);
  });
}

/**
 * Runs as soon as the console's script loads (before React and the configuration): a pop-up sent
 * back to a callback URL reports at once, so the opener does not wait for the whole console to render.
 */
export function reportPopupOutcomeEarly(): void {
  if (typeof window === 'undefined') return;
  const outcome = readPopupOutcome(window.location.search);
  const page = window.location.pathname;
  if (outcome && (page === '/sign-in' || page === '/sign-in/office-365')) reportPopupOutcome(outcome);
}
