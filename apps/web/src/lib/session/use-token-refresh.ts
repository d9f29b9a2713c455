import { TOKEN_REFRESH_MS } from '@quire/core';
import { useEffect, useRef } from 'react';

/** Token refresh period (spec §9: 2,700,000 ms, 45 minutes). */
const TOKEN_REFRESH_INTERVAL_MS = TOKEN_REFRESH_MS;

interface TokenRefreshOptions {
  /** Refresh only while someone is signed in. */
  active: boolean;
  /** Renews the token and the session cookie; false when the session is over; throws when offline. */
  refresh(): Promise<boolean>;
  /** Whether the __admin_session cookie is still honoured. It is HttpOnly, so only the server can tell. */
  probe(): Promise<boolean>;
  /** Runs after every successful refresh (the re-auth access-log call). */
  afterRefresh(): void;
  /** The session is gone for good. */
  onExpired(): void;
}

/**
 * Keeps the session alive: refreshes every 45 minutes, and when the tab becomes visible again
 * while the session cookie is missing (a laptop woken after the one-hour cookie expired).
 */
export function useTokenRefresh(options: TokenRefreshOptions): void {
  const latest = useRef(options);
  latest.current = options;

  useEffect(() => {
    if (!options.active) return;
    let running = false;
    const refresh = async () => {
      if (running) return;
      running = true;
      try {
        const ok = await latest.current.refresh().catch(() => null);
        // null: the server was unreachable; keep the session and try again next time
        if (ok === true) latest.current.afterRefresh();
        else if (ok === false) latest.current.onExpired();
      } finally {
        running = false;
      }
    };
    const timer = setInterval(() => void refresh(), TOKEN_REFRESH_INTERVAL_MS);
    const onVisibility = () => {
      if (document.visibilityState !== 'visible') return;
      void latest.current.probe().then((present) => {
        if (!present) void refresh();
      });
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [options.active]);
}
