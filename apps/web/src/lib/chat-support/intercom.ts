/**
 * Intercom's JavaScript API, as its installation guide for single-page apps documents it: a queueing stub
 * `window.Intercom` that the widget script replays when it loads, then `Intercom('boot', settings)` once the
 * user is known, `Intercom('update', changes)` when something about them changes, `Intercom('shutdown')` on
 * sign-out (which also clears the visitor's conversations from the browser).
 */
type IntercomCommand = 'boot' | 'update' | 'shutdown';
type IntercomFn = ((command: IntercomCommand, payload?: Record<string, unknown>) => void) & { q?: unknown[]; c?: (args: unknown) => void };

declare global {
  interface Window {
    Intercom?: IntercomFn;
    intercomSettings?: Record<string, unknown>;
  }
}

/**
 * The room the widget's launcher takes at the bottom right of the window (Intercom's default: 48 px, 20 px from the
 * edges): the console keeps that much free below its content, so the last controls of a screen (the Teachers
 * pager at 1280 px) can scroll clear of it instead of sitting under it.
 */
export const CHAT_LAUNCHER_ROOM = 20 + 48 + 20;

/** Installs the queueing stub and the widget script once; calls made before it loads are queued. */
export function loadIntercom(scriptUrl: string, appId: string): void {
  window.intercomSettings = { app_id: appId };
  if (typeof window.Intercom === 'function') return;
  const queue: unknown[] = [];
  const stub = ((...args: unknown[]) => {
    queue.push(args);
  }) as IntercomFn;
  stub.q = queue;
  stub.c = (args: unknown) => queue.push(args);
  window.Intercom = stub;
  const script = document.createElement('script');
  script.async = true;
  script.src = scriptUrl;
  script.dataset.chatSupport = 'intercom';
  document.head.appendChild(script);
}

export function intercom(command: IntercomCommand, payload?: Record<string, unknown>): void {
  if (typeof window.Intercom !== 'function') return;
  if (payload) window.Intercom(command, payload);
  else window.Intercom(command);
}

export interface ChatIdentity {
  appId: string;
  userId: string;
  email: string;
  name: string;
  userHash: string;
  organisation: { id: string; name: string };
}

/** Intercom's boot settings: the user (identity-verified by user_hash) and their organisation as company. */
export function bootSettings(identity: ChatIdentity): Record<string, unknown> {
  return {
    app_id: identity.appId,
    user_id: identity.userId,
    email: identity.email,
    name: identity.name,
    user_hash: identity.userHash,
    company: { id: identity.organisation.id, name: identity.organisation.name },
  };
}
