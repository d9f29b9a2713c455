import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../test/render.js';
import { ConfirmDialog } from './confirm-dialog.js';

describe('ConfirmDialog', () => {
  it('focuses Cancel first, so Enter closes without confirming', async () => {
    const onConfirm = vi.fn();
    const onClose = vi.fn();
    renderAt(
      <ConfirmDialog opened title="Remove thing" confirmLabel="Remove" destructive onConfirm={onConfirm} onClose={onClose}>
        The thing goes away.
      </ConfirmDialog>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Remove thing' });
    expect(dialog).toHaveTextContent('The thing goes away.');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus());
    await userEvent.keyboard('{Enter}');
    expect(onClose).toHaveBeenCalled();
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('runs the action from its confirming button', async () => {
    const onConfirm = vi.fn();
    renderAt(
      <ConfirmDialog opened title="Turn off thing?" confirmLabel="Turn off" onConfirm={onConfirm} onClose={() => undefined}>
        It can be turned on again.
      </ConfirmDialog>,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Turn off' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});
