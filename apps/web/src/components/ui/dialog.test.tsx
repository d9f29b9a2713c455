import { Button, Menu, TextInput } from '@mantine/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderAt } from '../../test/render.js';
import { Dialog } from './dialog.js';
import { RowMenu } from './row-menu.js';

/** A row whose menu opens a dialog, as on the Teachers and Admin screens; the row can go away. */
function RowWithDialog({ removeRowOnConfirm = false }: { removeRowOnConfirm?: boolean }) {
  const [open, setOpen] = useState(false);
  const [row, setRow] = useState(true);
  return (
    <main id="main-content" tabIndex={-1}>
      {row ? (
        <RowMenu label="Actions for ann@school.test" width={200}>
          <Menu.Item onClick={() => setOpen(true)}>Rename</Menu.Item>
        </RowMenu>
      ) : null}
      {open ? (
        <Dialog opened onClose={() => setOpen(false)} title="Rename">
          <TextInput label="New name" />
          <Button
            onClick={() => {
              setOpen(false);
              if (removeRowOnConfirm) setRow(false);
            }}
          >
            Save
          </Button>
        </Dialog>
      ) : null}
    </main>
  );
}

/**
 * The row's menu button, found as a user finds it: by its name. The row's button becomes the menu's own trigger when
 * first pressed (row-menu.tsx), so the element is looked up again rather than kept.
 */
const menuButton = () => screen.getByRole('button', { name: 'Actions for ann@school.test' });

/** Focus moves after timers; a loaded machine needs more than waitFor's default second. */
const eventually = (assertion: () => void) => waitFor(assertion, { timeout: 5000 });

describe('Dialog focus (WCAG 2.4.3)', () => {
  it('opens on its first field, not on Close, and gives focus back to the menu button that opened it', async () => {
    renderAt(<RowWithDialog />);
    const user = userEvent.setup();
    await user.click(menuButton());
    await user.click(await screen.findByRole('menuitem', { name: 'Rename' }));
    const field = await screen.findByRole('textbox', { name: 'New name' });
    await eventually(() => expect(field).toHaveFocus());
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await eventually(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await eventually(() => expect(menuButton()).toHaveFocus());
  });

  it('Escape gives focus back too', async () => {
    renderAt(<RowWithDialog />);
    const user = userEvent.setup();
    await user.click(menuButton());
    await user.click(await screen.findByRole('menuitem', { name: 'Rename' }));
    await eventually(() => expect(screen.getByRole('textbox', { name: 'New name' })).toHaveFocus());
    await user.keyboard('{Escape}');
    await eventually(() => expect(menuButton()).toHaveFocus());
  });

  it('when the row that opened it has gone, focus goes to the main landmark, not the page body', async () => {
    renderAt(<RowWithDialog removeRowOnConfirm />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Actions for ann@school.test' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Rename' }));
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    await eventually(() => expect(screen.getByRole('main')).toHaveFocus());
  });

  it('a dialog that hands over to another gives focus back to the first opener when the second closes', async () => {
    function HandOver() {
      const [which, setWhich] = useState<'none' | 'viewer' | 'wizard'>('none');
      return (
        <>
          <Button onClick={() => setWhich('viewer')}>View Profile</Button>
          {which === 'viewer' ? (
            <Dialog opened onClose={() => setWhich('none')} title="Libraries">
              <Button onClick={() => setWhich('wizard')}>Manage libraries</Button>
            </Dialog>
          ) : null}
          {which === 'wizard' ? (
            <Dialog opened onClose={() => setWhich('none')} title="Manage Teacher Libraries">
              <Button onClick={() => setWhich('none')}>Cancel</Button>
            </Dialog>
          ) : null}
        </>
      );
    }
    renderAt(<HandOver />);
    const user = userEvent.setup();
    const opener = screen.getByRole('button', { name: 'View Profile' });
    await user.click(opener);
    await user.click(await screen.findByRole('button', { name: 'Manage libraries' }));
    const cancel = await screen.findByRole('button', { name: 'Cancel' });
    await eventually(() => expect(cancel).toHaveFocus());
    await user.click(cancel);
    await eventually(() => expect(opener).toHaveFocus());
  });

  it('moves focus into the new content when a step changes (focusKey), so it is not lost with the removed button', async () => {
    function Steps() {
      const [step, setStep] = useState(1);
      return (
        <Dialog opened onClose={() => undefined} title="Steps" focusKey={step}>
          {step === 1 ? <Button onClick={() => setStep(2)}>Next</Button> : <TextInput label="Second step field" />}
        </Dialog>
      );
    }
    renderAt(<Steps />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Next' }));
    await eventually(() => expect(screen.getByRole('textbox', { name: 'Second step field' })).toHaveFocus());
  });

  it('a dialog opened by a button returns focus to it, and a toggled dialog (opened=false) does too', async () => {
    function Toggled() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <Button onClick={() => setOpen(true)}>Add admins</Button>
          <Dialog opened={open} onClose={() => setOpen(false)} title="Add admins">
            <TextInput label="Email addresses" data-autofocus />
            <Button onClick={() => setOpen(false)}>Cancel</Button>
          </Dialog>
        </>
      );
    }
    renderAt(<Toggled />);
    const user = userEvent.setup();
    const opener = screen.getByRole('button', { name: 'Add admins' });
    await user.click(opener);
    await eventually(() => expect(screen.getByRole('textbox', { name: 'Email addresses' })).toHaveFocus());
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await eventually(() => expect(opener).toHaveFocus());
  });
});

describe('RowMenu (mounted on first use)', () => {
  it('closes on an Escape pressed before focus has moved into it (a quick key, while the menu is still opening)', async () => {
    renderAt(<RowWithDialog />);
    const user = userEvent.setup();
    await user.tab();
    await user.keyboard('{Enter}');
    await screen.findByRole('menuitem', { name: 'Rename' });
    // Focus still on the button, as it is for the first moments of the opening.
    menuButton().focus();
    await user.keyboard('{Escape}');
    await eventually(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    expect(menuButton()).toHaveFocus();
    expect(menuButton()).toHaveAttribute('aria-expanded', 'false');
  });

  it('opens by keyboard on its first item the first time and gives focus back to its button on Escape', async () => {
    renderAt(<RowWithDialog />);
    const user = userEvent.setup();
    expect(menuButton()).toHaveAttribute('aria-haspopup', 'menu');
    expect(menuButton()).toHaveAttribute('aria-expanded', 'false');
    await user.tab();
    expect(menuButton()).toHaveFocus();
    await user.keyboard('{Enter}');
    const item = await screen.findByRole('menuitem', { name: 'Rename' });
    expect(menuButton()).toHaveAttribute('aria-expanded', 'true');
    await eventually(() => expect(item).toHaveFocus());
    await user.keyboard('{Escape}');
    await eventually(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    await eventually(() => expect(menuButton()).toHaveFocus());
    expect(menuButton()).toHaveAttribute('aria-expanded', 'false');
    // Mounted now, it opens and closes as any menu does.
    await user.click(menuButton());
    expect(await screen.findByRole('menuitem', { name: 'Rename' })).toBeInTheDocument();
  });
});
