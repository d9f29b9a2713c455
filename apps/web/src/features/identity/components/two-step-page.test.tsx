import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAuth } from '../auth-test-helpers.js';
import { adaIdentity, fakeBackend } from '../../../test/fake-session.js';
import { fakeFetch } from '../../../test/fake-fetch.js';
import { GraphqlError } from '../../../lib/api/index.js';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  vi.unstubAllGlobals();
});

const waiting = { ...adaIdentity, twoStep: 'second-step' as const };

describe('the second step of 2-step verification', () => {
  it('is where a session waiting for it goes, and a right code continues to the page the sign-in was going to', async () => {
    const server = fakeFetch({ 'POST /api/two-step/verify': () => ({ status: 200, body: { method: 'totp', recoveryCodesRemaining: 10 } }) });
    const backend = fakeBackend({ getSession: vi.fn().mockResolvedValue(waiting) });
    renderAuth('/org-1/teachers', backend);
    const field = await screen.findByRole('textbox', { name: 'Code' });
    expect(screen.getByTestId('location')).toHaveTextContent('/sign-in/two-step');
    // A phone shows its number pad and may offer the code.
    expect(field).toHaveAttribute('inputmode', 'numeric');
    expect(field).toHaveAttribute('autocomplete', 'one-time-code');
    const user = userEvent.setup();
    await user.type(field, '123 456');
    await user.click(screen.getByRole('checkbox', { name: /Trust this device/ }));
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Console home')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/org-1/teachers');
    expect(JSON.parse(String(server.requests[0]?.text))).toEqual({ code: '123 456', trustDevice: true });
    expect(backend.completeTwoStep).toHaveBeenCalledTimes(1);
  });

  it('refuses a malformed code without asking the server, and shows the wait after too many wrong codes', async () => {
    const server = fakeFetch({
      'POST /api/two-step/verify': () => ({
        status: 429,
        body: { code: 'two_step_too_many_tries', message: 'Too many wrong codes. Try again in 14 minutes.', retryAfterSeconds: 840 },
      }),
    });
    renderAuth('/sign-in/two-step', fakeBackend({ getSession: vi.fn().mockResolvedValue(waiting) }));
    const field = await screen.findByRole('textbox', { name: 'Code' });
    fireEvent.change(field, { target: { value: '12a' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('The code is 6 digits, such as 123456.')).toBeInTheDocument();
    expect(server.requests).toHaveLength(0);
    fireEvent.change(field, { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many wrong codes. Try again in 14 minutes.');
    expect(screen.getByTestId('location')).toHaveTextContent('/sign-in/two-step');
  });

  it('takes a recovery code instead', async () => {
    const server = fakeFetch({ 'POST /api/two-step/verify': () => ({ status: 200, body: { method: 'recovery_code', recoveryCodesRemaining: 9 } }) });
    renderAuth('/sign-in/two-step', fakeBackend({ getSession: vi.fn().mockResolvedValue(waiting) }));
    await screen.findByRole('textbox', { name: 'Code' });
    fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    const field = await screen.findByRole('textbox', { name: 'Recovery code' });
    await waitFor(() => expect(field).toHaveFocus());
    fireEvent.change(field, { target: { value: 'abcde-23456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Console home')).toBeInTheDocument();
    expect(JSON.parse(String(server.requests[0]?.text))).toMatchObject({ code: 'abcde-23456' });
  });

  it('sends a signed-in admin to enrolment when a call is refused because the organisation now requires it, not out', async () => {
    const refused = new GraphqlError('getOrganisations', 403, [{ message: 'Your organisation requires 2-step verification: turn it on before you continue.', extensions: { code: 'two_step_enrolment_required' } }]);
    const backend = fakeBackend({ getSession: vi.fn().mockResolvedValue(adaIdentity), getOrganisations: vi.fn().mockRejectedValue(refused) });
    renderAuth('/org-1/teachers', backend);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/account/security'));
    expect(backend.signOut).not.toHaveBeenCalled();
  });

  it('sends an admin who must turn 2-step verification on to the Security page first', async () => {
    renderAuth('/org-1', fakeBackend({ getSession: vi.fn().mockResolvedValue({ ...adaIdentity, twoStep: 'enrol' }) }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/account/security'));
  });
});
