import { notifications } from '@mantine/notifications';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '../lib/query-client.js';
import { AppProviders } from './providers.js';

afterEach(() => {
  act(() => notifications.clean());
});

describe('AppProviders', () => {
  it('shows a notification a screen raises through lib/notify: the container mounts once that module has loaded', async () => {
    render(
      <AppProviders queryClient={createQueryClient()}>
        <p>Screen</p>
      </AppProviders>,
    );
    expect(screen.getByText('Screen')).toBeInTheDocument();
    // As a screen's chunk would: the notify module loads, then a notification is shown.
    const { notifyInfo } = await import('../lib/notify.js');
    act(() => {
      notifyInfo('Settings saved');
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Settings saved');
  });
});
