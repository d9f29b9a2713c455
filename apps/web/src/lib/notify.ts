import { notifications } from '@mantine/notifications';
import { NOTIFICATION_ERROR_MS, NOTIFICATION_INFO_MS } from '@quire/core';
import { userFacingMessage } from './api/user-facing.js';
import { wantNotifications } from './notifications-wanted.js';

// The notifications' container mounts once this module is loaded (app/providers.tsx); a notification shown before
// it has mounted waits in the store and appears when it does.
wantNotifications();

const closeButtonProps = { 'aria-label': 'Dismiss notification' };

/** The two kinds of notification of spec §8: how each looks and how long it stays. */
const kinds = {
  error: { className: 'quire-notification-error', color: 'red', background: 'var(--mantine-color-red-9)', autoClose: NOTIFICATION_ERROR_MS },
  info: { className: 'quire-notification-info', color: 'dark', background: 'var(--mantine-color-dark-7)', autoClose: NOTIFICATION_INFO_MS },
} as const;

function show(message: string, kind: keyof typeof kinds): string {
  const { className, color, background, autoClose } = kinds[kind];
  return notifications.show({
    message,
    color,
    autoClose,
    withCloseButton: true,
    closeButtonProps,
    className,
    styles: {
      root: { backgroundColor: background },
      description: { color: 'var(--mantine-color-white)' },
      closeButton: { color: 'var(--mantine-color-white)' },
    },
  });
}

/** Shows an error banner (spec §8): red, dismissible, 5000 ms. Returns its id. */
export function notifyError(message: string): string {
  return show(message, 'error');
}

/** Shows an info notice (spec §8): dark, 2000 ms. Returns its id. */
export function notifyInfo(message: string): string {
  return show(message, 'info');
}

/** The text to show for a thrown error: an ApiError's or GraphqlError's message, else the screen's own text. */
export function errorMessageOf(error: unknown, fallback: string): string {
  return userFacingMessage(error) ?? fallback;
}
