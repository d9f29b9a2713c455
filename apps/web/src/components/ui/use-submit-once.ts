import { useCallback, useRef, useState } from 'react';

/** A fresh idempotency key. */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/**
 * Makes a writing action idempotent from the user's side:
 * - a second click (or Enter) while the action runs does nothing — `busy` turns the control to loading, and a
 *   ref guards the clicks that arrive before React re-renders;
 * - the action receives one idempotency key, kept until it succeeds, so a replay of the same action (a retry
 *   after a lost answer) is refused by the server instead of being done twice.
 */
export function useSubmitOnce() {
  const inFlight = useRef(false);
  const key = useRef<string>(newIdempotencyKey());
  const [busy, setBusy] = useState(false);

  const submit = useCallback(async <T,>(action: (idempotencyKey: string) => Promise<T>): Promise<T | undefined> => {
    if (inFlight.current) return undefined;
    inFlight.current = true;
    setBusy(true);
    try {
      const result = await action(key.current);
      key.current = newIdempotencyKey();
      return result;
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  }, []);

  return { submit, busy };
}
