import { notifications } from '@mantine/notifications';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TestProviders } from '../test/render.js';
import { notifyError, notifyInfo } from './notify.js';

/** Moves time in small steps so React commits (and Mantine schedules its timers) as a browser would. */
function advance(ms: number) {
  for (let elapsed = 0; elapsed < ms; elapsed += 50) act(() => vi.advanceTimersByTime(50));
}

beforeEach(() => {
  vi.useFakeTimers();
  render(<TestProviders>{null}</TestProviders>);
});

afterEach(() => {
  act(() => notifications.clean());
  vi.useRealTimers();
});

describe('notifyError', () => {
  it('shows a red alert for 5000 ms', () => {
    act(() => {
      notifyError('Something went wrong updating the organisation name');
    });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Something went wrong updating the organisation name');
    expect(alert).toHaveStyle({ backgroundColor: 'var(--mantine-color-red-9)' });

    advance(4800);
    expect(screen.getByText('Something went wrong updating the organisation name')).toBeInTheDocument();
    advance(600);
    expect(screen.queryByText('Something went wrong updating the organisation name')).not.toBeInTheDocument();
  });

  it('can be dismissed', () => {
    act(() => {
      notifyError('Error setting user role');
    });
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    advance(500);
    expect(screen.queryByText('Error setting user role')).not.toBeInTheDocument();
  });
});

describe('notifyInfo', () => {
  it('shows a dark notice for 2000 ms', () => {
    act(() => {
      notifyInfo('Settings saved');
    });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Settings saved');
    expect(alert).toHaveStyle({ backgroundColor: 'var(--mantine-color-dark-7)' });

    advance(1800);
    expect(screen.getByText('Settings saved')).toBeInTheDocument();
    advance(600);
    expect(screen.queryByText('Settings saved')).not.toBeInTheDocument();
  });
});
