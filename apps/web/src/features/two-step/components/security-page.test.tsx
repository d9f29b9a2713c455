import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from 'react-router';
import { SessionProvider } from '../../../lib/session/index.js';
import { adaIdentity, fakeBackend } from '../../../test/fake-session.js';
import { fakeFetch, type FakeAnswer } from '../../../test/fake-fetch.js';
import { createTestQueryClient, TestProviders } from '../../../test/render.js';
import { SecurityPage } from './security-page.js';

beforeEach(() => {
  sessionStorage.clear();
  vi.unstubAllGlobals();
});

const codes = Array.from({ length: 10 }, (_, i) => `abcde-2345${i}`);
const status = (enabled: boolean, extra: object = {}): FakeAnswer => ({
  status: 200,
  body: { enabled, authenticatorAddedAt: enabled ? '2026-11-27T10:00:00.000Z' : null, recoveryCodesRemaining: enabled ? 10 : 0, requiredBy: null, hasPassword: true, passkeys: [], ...extra },
});
const setup: FakeAnswer = {
  status: 200,
  body: { secret: 'JBSWY3DPEHPK3PXPJBSWY3DP', uri: 'otpauth://totp/x', qrCodeSvg: '<svg xmlns="http://www.w3.org/2000/svg"/>', expiresAt: '2026-11-28T10:00:00.000Z' },
};

function WhereAmI() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

function renderSecurity(backend = fakeBackend({ getSession: vi.fn().mockResolvedValue(adaIdentity) })) {
  const router = createMemoryRouter(
    [
      {
        element: (
          <SessionProvider backend={backend}>
            <WhereAmI />
            <Outlet />
          </SessionProvider>
        ),
        children: [
          { path: '/account/security', element: <SecurityPage /> },
          { path: '*', element: <p>Console home</p> },
        ],
      },
    ],
    { initialEntries: ['/account/security'] },
  );
  render(
    <TestProviders queryClient={createTestQueryClient()}>
      <RouterProvider router={router} />
    </TestProviders>,
  );
  return { backend, user: userEvent.setup() };
}

describe('the Security page', () => {
  it('sets up an authenticator app for an admin who must enrol, shows the codes once, then opens the console where they were going', async () => {
    sessionStorage.setItem('quire.returnTo', '/org-1/teachers');
    let enabled = false;
    const server = fakeFetch({
      'GET /api/two-step': () => status(enabled),
      'POST /api/two-step/authenticator': () => setup,
      'POST /api/two-step/authenticator/confirm': ({ body }) => {
        if ((body as { code: string }).code !== '123456') return { status: 400, body: { code: 'two_step_code_wrong', message: 'That code is not right, or it was already used. Wait for the next code and try again.' } };
        enabled = true;
        return { status: 200, body: { recoveryCodes: codes } };
      },
    });
    const { backend, user } = renderSecurity(fakeBackend({ getSession: vi.fn().mockResolvedValue({ ...adaIdentity, twoStep: 'enrol' }) }));
    expect(await screen.findByText('Turn on 2-step verification to continue')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Back to the console' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Set up an authenticator app' }));
    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toBeInTheDocument();
    expect(screen.getByTestId('authenticator-secret')).toHaveTextContent('JBSW Y3DP EHPK 3PXP JBSW Y3DP');
    const field = screen.getByRole('textbox', { name: 'Code from the app' });
    await user.type(field, '654321{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('That code is not right');
    await waitFor(() => expect(field).toHaveFocus());
    await user.type(field, '123456{Enter}');
    const heading = await screen.findByRole('heading', { name: 'Save your recovery codes' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(within(screen.getByTestId('recovery-codes')).getAllByRole('listitem').map((li) => li.textContent)).toEqual(codes);
    await user.click(screen.getByRole('button', { name: 'I have saved them: continue' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/org-1/teachers'));
    expect(backend.completeTwoStep).toHaveBeenCalledTimes(1);
    expect(server.requests.filter((r) => r.path === '/api/two-step/authenticator/confirm')).toHaveLength(2);
  });

  it('asks for the password before turning 2-step verification off', async () => {
    let enabled = true;
    const server = fakeFetch({
      'GET /api/two-step': () => status(enabled),
      'POST /api/two-step/disable': () => {
        enabled = false;
        return { status: 200, body: { enabled: false } };
      },
    });
    const { user } = renderSecurity();
    expect(await screen.findByText('Recovery codes: 10 of 10 left.')).toBeInTheDocument();
    const turnOff = screen.getByRole('button', { name: 'Turn off' });
    await user.click(turnOff);
    const dialog = await screen.findByRole('dialog', { name: 'Turn off 2-step verification' });
    await user.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(await within(dialog).findByText('Enter your password.')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/^Password/), 'secret-1{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(JSON.parse(String(server.requests.find((r) => r.path === '/api/two-step/disable')?.text))).toEqual({ password: 'secret-1' });
    expect(await screen.findByRole('button', { name: 'Set up an authenticator app' })).toBeInTheDocument();
  });

  it('does not offer turning off when the organisation requires it', async () => {
    fakeFetch({ 'GET /api/two-step': () => status(true, { requiredBy: 'organisation' }) });
    renderSecurity();
    expect(await screen.findByRole('button', { name: 'Turn off' })).toBeDisabled();
    expect(screen.getByText('Your organisation requires 2-step verification for admins, so it cannot be turned off.')).toBeInTheDocument();
  });

  describe('passkeys', () => {
    const laptop = { id: 'cred-1', name: 'Work laptop', createdAt: '2026-11-20T10:00:00.000Z', lastUsedAt: null };
    const phone = { id: 'cred-2', name: 'Phone', createdAt: '2026-11-21T10:00:00.000Z', lastUsedAt: '2026-11-27T08:00:00.000Z' };

    it('lists each passkey, renames one and removes another with a confirmation', async () => {
      let passkeys = [laptop, phone];
      const server = fakeFetch({
        'GET /api/two-step': () => status(true, { authenticatorAddedAt: null, passkeys }),
        'PATCH /api/two-step/passkeys/:id': ({ text }) => {
          const name = (JSON.parse(String(text)) as { name: string }).name;
          passkeys = passkeys.map((p) => (p.id === 'cred-1' ? { ...p, name } : p));
          return { status: 200, body: passkeys[0] };
        },
        'DELETE /api/two-step/passkeys/:id': () => {
          passkeys = passkeys.filter((p) => p.id !== 'cred-2');
          return { status: 200, body: { enabled: true } };
        },
      });
      const { user } = renderSecurity();
      const list = await screen.findByRole('list', { name: 'Your passkeys' });
      expect(list).toHaveTextContent('Work laptopAdded on 20 November 2026 · not used yet');
      expect(list).toHaveTextContent('PhoneAdded on 21 November 2026 · last used on 27 November 2026');
      expect(screen.getByText('2 passkeys (below).')).toBeInTheDocument();

      const rename = screen.getByRole('button', { name: 'Rename Work laptop' });
      await user.click(rename);
      const dialog = await screen.findByRole('dialog', { name: 'Rename passkey' });
      const field = within(dialog).getByRole('textbox', { name: /^Passkey name/ });
      await user.clear(field);
      await user.keyboard('{Enter}');
      expect(await within(dialog).findByText('Enter a name for the passkey.')).toBeInTheDocument();
      await user.type(field, 'Desk laptop{Enter}');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(JSON.parse(String(server.requests.find((r) => r.method === 'PATCH')?.text))).toEqual({ name: 'Desk laptop' });
      expect(await screen.findByRole('button', { name: 'Rename Desk laptop' })).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Remove Phone' }));
      const confirm = await screen.findByRole('dialog', { name: 'Remove passkey' });
      expect(confirm).toHaveTextContent('“Phone” will no longer sign you in.');
      await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
      await waitFor(() => expect(screen.queryByRole('button', { name: 'Remove Phone' })).not.toBeInTheDocument());
      expect(server.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/api/two-step/passkeys/cred-2']);
    });

    it('removing the only passkey is turning 2-step verification off, proved with the password or a recovery code', async () => {
      const server = fakeFetch({
        'GET /api/two-step': () => status(true, { authenticatorAddedAt: null, passkeys: [laptop] }),
        'POST /api/two-step/disable': () => ({ status: 200, body: { enabled: false } }),
      });
      const { user } = renderSecurity();
      await user.click(await screen.findByRole('button', { name: 'Remove Work laptop' }));
      const dialog = await screen.findByRole('dialog', { name: 'Turn off 2-step verification' });
      expect(dialog).toHaveTextContent('your passkeys and recovery codes will stop working');
      await user.click(within(dialog).getByRole('button', { name: 'Use a recovery code instead' }));
      await user.type(within(dialog).getByRole('textbox', { name: 'Recovery code' }), 'abcde-23450{Enter}');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(JSON.parse(String(server.requests.find((r) => r.path === '/api/two-step/disable')?.text))).toEqual({ code: 'abcde-23450' });
      expect(server.requests.some((r) => r.method === 'DELETE')).toBe(false);
    });

    it('cannot remove the only passkey when 2-step verification is required', async () => {
      fakeFetch({ 'GET /api/two-step': () => status(true, { authenticatorAddedAt: null, passkeys: [laptop], requiredBy: 'organisation' }) });
      renderSecurity();
      expect(await screen.findByRole('button', { name: 'Remove Work laptop' })).toBeDisabled();
      expect(screen.getByText(/This passkey is your only second step, and 2-step verification is required/)).toBeInTheDocument();
    });
  });
});
