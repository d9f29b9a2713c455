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

describe.each([
  { notify: notifyError, kind: 'a red alert', text: 'Something went wrong updating the organisation name', background: 'var(--mantine-color-red-9)', ms: 5000 },
  { notify: notifyInfo, kind: 'a dark notice', text: 'Settings saved', background: 'var(--mantine-color-dark-7)', ms: 2000 },
])('$notify.name', ({ notify, kind, text, background, ms }) => {
  it(`shows ${kind} for ${ms} ms`, () => {
    act(() => {
      notify(text);
    });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(text);
    expect(alert).toHaveStyle({ backgroundColor: background });

    advance(ms - 200);
    expect(screen.getByText(text)).toBeInTheDocument();
    advance(600);
    expect(screen.queryByText(text)).not.toBeInTheDocument();
  });
});

describe('notifyError', () => {
  it('can be dismissed', () => {
    act(() => {
      notifyError('Error setting user role');
    });
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    advance(500);
    expect(screen.queryByText('Error setting user role')).not.toBeInTheDocument();
  });
});
