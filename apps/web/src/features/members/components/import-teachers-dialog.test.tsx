import { importMessages } from '@quire/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../../test/render.js';
import { fakeFetch } from '../../../test/fake-fetch.js';
import { buildLicense } from '../../../test/fixtures.js';
import { ImportTeachersDialog } from './import-teachers-dialog.js';

const IMPORT_URL = 'POST /payments/v1/admin/organisations/org-1/members/import/teachers';

afterEach(() => vi.unstubAllGlobals());

function renderDialog(licenses = [buildLicense({ allocated: 3, quantity: 5 })]) {
  const onImported = vi.fn();
  const onClose = vi.fn();
  renderAt(<ImportTeachersDialog opened orgId="org-1" licenses={licenses} onClose={onClose} onImported={onImported} />);
  return { onImported, onClose, user: userEvent.setup() };
}

async function enter(user: ReturnType<typeof userEvent.setup>, text: string) {
  const box = screen.getByRole('textbox', { name: /Teacher email addresses/ });
  await user.clear(box);
  await user.click(box);
  await user.paste(text);
  await user.click(screen.getByRole('button', { name: 'Next' }));
}

describe('Import Teachers', () => {
  it('splits on new lines, commas and semicolons, counts valid and invalid entries, and blocks Import while any is invalid', async () => {
    fakeFetch({});
    const { user } = renderDialog([]);
    await enter(user, ' Ann@School.test ; bad-address,bob@school.test\nann@school.test\n\n');
    expect(screen.getByText('2 teachers are ready to import')).toBeInTheDocument();
    expect(screen.getByText('1 invalid email address')).toBeInTheDocument();
    expect(screen.getByText('bad-address')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Back' }));
    await enter(user, 'ann@school.test');
    expect(screen.getByText('1 teacher is ready to import')).toBeInTheDocument();
    expect(screen.queryByText(/invalid email address/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Import' })).toBeEnabled();
  });

  it('offers licence ticks only while licences remain, and Select all only when they cover every entry', async () => {
    fakeFetch({});
    const { user } = renderDialog([buildLicense({ allocated: 4, quantity: 6 })]);
    await enter(user, 'a@school.test, b@school.test, c@school.test');
    // Two licences for three entries: no Select all; the third box locks once two are ticked.
    expect(screen.queryByRole('checkbox', { name: 'Select all' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'a@school.test' }));
    await user.click(screen.getByRole('checkbox', { name: 'b@school.test' }));
    expect(screen.getByRole('checkbox', { name: 'c@school.test' })).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'a@school.test' }));
    expect(screen.getByRole('checkbox', { name: 'c@school.test' })).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Back' }));
    await enter(user, 'a@school.test, b@school.test');
    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    expect(screen.getByRole('checkbox', { name: 'a@school.test' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'b@school.test' })).toBeChecked();
  });

  it('offers no licences when none are available', async () => {
    fakeFetch({});
    const { user } = renderDialog([buildLicense({ allocated: 5, quantity: 5 }), buildLicense({ id: 'all', applyToAll: true, allocated: 0 })]);
    await enter(user, 'a@school.test');
    expect(screen.queryByRole('combobox', { name: 'License to assign' })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'a@school.test' })).not.toBeInTheDocument();
  });

  it('imports the list with the ticked licences', async () => {
    const api = fakeFetch({ [IMPORT_URL]: { body: { newMembers: [{ id: 'n1', email: 'a@school.test' }], existingMembers: [], licensesNotGranted: [] } } });
    const { user, onImported } = renderDialog();
    await enter(user, 'A@school.test\nb@school.test');
    await user.click(screen.getByRole('checkbox', { name: 'a@school.test' }));
    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect(onImported).toHaveBeenCalledWith(expect.objectContaining({ newMembers: [{ id: 'n1', email: 'a@school.test' }] }));
    expect(api.callsTo(IMPORT_URL)[0]?.body).toEqual({ emails: ['a@school.test', 'b@school.test'], licenses: { 'a@school.test': 'lic-std' } });
  });

  it('imports once on a double click, with an idempotency key', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const api = fakeFetch({
      [IMPORT_URL]: async () => {
        await gate;
        return { body: { newMembers: [{ id: 'n1', email: 'a@school.test' }], existingMembers: [], licensesNotGranted: [] } };
      },
    });
    const { user, onImported } = renderDialog();
    await enter(user, 'a@school.test');
    await user.dblClick(screen.getByRole('button', { name: 'Import' }));
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
    release();
    await waitFor(() => expect(onImported).toHaveBeenCalledTimes(1));
    expect(api.callsTo(IMPORT_URL)).toHaveLength(1);
    expect(api.callsTo(IMPORT_URL)[0]?.headers['idempotency-key']).toMatch(/.{16,}/);
  });

  it.each([
    [403, importMessages.forbidden],
    [409, importMessages.licensesNotGranted],
    [500, importMessages.failed],
  ])('shows the §8 text when the server answers %i', async (status, text) => {
    fakeFetch({ [IMPORT_URL]: { status, body: { code: 'x', message: 'server words' } } });
    const { user, onImported } = renderDialog();
    await enter(user, 'a@school.test');
    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(onImported).not.toHaveBeenCalled();
    expect(within(screen.getByRole('dialog')).getByRole('button', { name: 'Import' })).toBeEnabled();
  });
});
