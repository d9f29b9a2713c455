import { notifications } from '@mantine/notifications';
import { NOTIFICATION_ERROR_MS, NOTIFICATION_INFO_MS } from '@quire/core';

const closeButtonProps = { 'aria-label': 'Dismiss notification' };

/** Shows an error banner (spec §8): red, dismissible, 5000 ms. Returns its id. */
export function notifyError(message: string): string {
  return notifications.show({
    message,
    color: 'red',
    autoClose: NOTIFICATION_ERROR_MS,
    withCloseButton: true,
    closeButtonProps,
    className: 'quire-notification-error',
    styles: {
      root: { backgroundColor: 'var(--mantine-color-red-9)' },
      description: { color: 'var(--mantine-color-white)' },
      closeButton: { color: 'var(--mantine-color-white)' },
    },
  });
}

/** Shows an info notice (spec §8): dark, 2000 ms. Returns its id. */
export function notifyInfo(message: string): string {
  return notifications.show({
    message,
    color: 'dark',
    autoClose: NOTIFICATION_INFO_MS,
    withCloseButton: true,
    closeButtonProps,
    className: 'quire-notification-info',
    styles: {
      root: { backgroundColor: 'var(--mantine-color-dark-7)' },
      description: { color: 'var(--mantine-color-white)' },
      closeButton: { color: 'var(--mantine-color-white)' },
    },
  });
}

/** The text to show for a thrown error: ApiError and GraphqlError messages are already user-facing. */
export function errorMessageOf(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message.trim()) return error.message;
  return fallback;
}
