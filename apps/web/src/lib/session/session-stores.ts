/**
 * Client stores that hold per-user data register a reset here; sign-out runs every one, so the
 * next person at the same browser starts clean (spec §4: sign-out clears all stores).
 */
const resets = new Set<() => void>();

/** Registers a reset to run on sign-out; returns an unregister function. */
export function registerSessionStore(reset: () => void): () => void {
  resets.add(reset);
  return () => resets.delete(reset);
}

export function resetSessionStores(): void {
  for (const reset of resets) {
    try {
      reset();
    } catch {
      // one faulty store must not keep the others (or the sign-out) from finishing
    }
  }
}
