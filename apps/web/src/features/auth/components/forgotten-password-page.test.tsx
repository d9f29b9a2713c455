import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderAuth } from '../auth-test-helpers.js';
import { fakeBackend } from '../../../test/fake-session.js';

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

describe('/sign-in/forgotten-password', { timeout: 20_000 }, () => {
  it('validates, sends, then confirms with a Sign in button', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ status: true }));
    renderAuth('/sign-in/forgotten-password', fakeBackend());
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Please enter your email address')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Email/), 'Ada@School.test');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(/we have sent it an email with a link to reset your password/)).toHaveTextContent('ada@school.test');
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(url)).toBe('/identity/request-password-reset');
    expect(JSON.parse(String(init?.body))).toEqual({ email: 'ada@school.test' });
    await user.click(screen.getByRole('link', { name: 'Sign in' }));
    // The e-mail sign-in screen is a lazily loaded route: the location changes once its chunk is in.
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/sign-in/email/ada%40school.test'));
  });

  it('prefills the address from the route and cancels back to sign-in', async () => {
    renderAuth('/sign-in/forgotten-password/ada%40school.test', fakeBackend());
    expect(await screen.findByLabelText(/^Email/)).toHaveValue('ada@school.test');
    await userEvent.setup().click(screen.getByRole('link', { name: 'Cancel' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('shows a rate-limit text that does not speak of passwords when refused (this form has none)', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ code: 'too_many_requests', message: 'x' }, 429));
    renderAuth('/sign-in/forgotten-password/ada%40school.test', fakeBackend());
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Send' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Too many requests from this address. Please try again in a few minutes.');
    expect(alert).not.toHaveTextContent(/password/);
  });

  it.each([
    ['a limit answered with the password form’s code', 429, 'auth/too-many-requests'],
    ['a wrong-password code', 400, 'auth/wrong-password'],
  ])('never speaks of an incorrect password, even for %s (issue 15)', async (_case, status, code) => {
    fetchMock.mockResolvedValue(jsonResponse({ code, message: 'x' }, status));
    renderAuth('/sign-in/forgotten-password/ada%40school.test', fakeBackend());
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Send' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).not.toMatch(/incorrect password/i);
    expect(alert.textContent).not.toBe('');
  });

  it('puts the cursor in the e-mail field, which asks for an e-mail address (issue 15)', async () => {
    renderAuth('/sign-in/forgotten-password', fakeBackend());
    const email = await screen.findByRole('textbox', { name: /^Email/ });
    await waitFor(() => expect(email).toHaveFocus());
    expect(email).toHaveAttribute('autocomplete', 'email');
  });
});
