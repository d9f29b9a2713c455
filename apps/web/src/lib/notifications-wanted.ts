import { useSyncExternalStore } from 'react';

/**
 * Whether the console has shown, or may show, a notification. The notifications' container (and its transitions,
 * with their chunk) mounts only from then on: /sign-in shows none, and its first paint no longer waits behind
 * that download.
 */
let wanted = false;
const listeners = new Set<() => void>();

/** Called when lib/notify.ts loads, before it can show anything: the container is needed from now on. */
export function wantNotifications(): void {
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const read = () => wanted;

/** True once a notification may be shown. */
export function useNotificationsWanted(): boolean {
  return useSyncExternalStore(subscribe, read, read);
}
