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

describe('the Security page', { timeout: 20_000 }, () => {
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
});
