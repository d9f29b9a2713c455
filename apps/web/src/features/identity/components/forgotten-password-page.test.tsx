import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAuth } from '../auth-test-helpers.js';
import { fakeFetch, type FakeAnswer } from '../../../test/fake-fetch.js';
import { fakeBackend } from '../../../test/fake-session.js';

const serveReset = (answer: FakeAnswer) => fakeFetch({ 'POST /identity/request-password-reset': answer });
let server: ReturnType<typeof serveReset>;
beforeEach(() => {
  server = serveReset({ status: 404, body: { code: 'not_found', message: 'Not found' } });
});
afterEach(() => vi.unstubAllGlobals());

describe('/sign-in/forgotten-password', () => {
  it('validates, sends, then confirms with a Sign in button', async () => {
    server = serveReset({ body: { status: true } });
    renderAuth('/sign-in/forgotten-password', fakeBackend());
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Please enter your email address')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Email/), 'Ada@School.test');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(/we have sent it an email with a link to reset your password/)).toHaveTextContent('ada@school.test');
    const request = server.requests[0];
    expect(request?.url).toBe('/identity/request-password-reset');
    expect(request?.body).toEqual({ email: 'ada@school.test' });
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
    server = serveReset({ status: 429, body: { code: 'too_many_requests', message: 'x' } });
    renderAuth('/sign-in/forgotten-password/ada%40school.test', fakeBackend());
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Send' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Too many requests from this address. Please try again in a few minutes.');
    expect(alert).not.toHaveTextContent(/password/);
  });

  it.each([
    ['a limit answered with the password form’s code', 429, 'auth/too-many-requests'],
    ['a wrong-password code', 400, 'auth/wrong-password'],
  ])('never speaks of an incorrect password, even for %s', async (_case, status, code) => {
    server = serveReset({ status, body: { code, message: 'x' } });
    renderAuth('/sign-in/forgotten-password/ada%40school.test', fakeBackend());
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Send' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).not.toMatch(/incorrect password/i);
    expect(alert.textContent).not.toBe('');
  });

  it('puts the cursor in the e-mail field, which asks for an e-mail address', async () => {
    renderAuth('/sign-in/forgotten-password', fakeBackend());
    const email = await screen.findByRole('textbox', { name: /^Email/ });
    await waitFor(() => expect(email).toHaveFocus());
    expect(email).toHaveAttribute('autocomplete', 'email');
  });
});
