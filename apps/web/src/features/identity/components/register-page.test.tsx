import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthFailure } from '../../../lib/session/session-backend.js';
import { renderAuth } from '../auth-test-helpers.js';
import { fakeFetch, type FakeAnswer } from '../../../test/fake-fetch.js';
import { adaIdentity, fakeBackend } from '../../../test/fake-session.js';

const serveAllowed = (answer: FakeAnswer) => fakeFetch({ 'POST /auth/allowed-as-teacher': answer });
let server: ReturnType<typeof serveAllowed>;
beforeEach(() => {
  server = serveAllowed({ body: { allowed: true } });
});
afterEach(() => vi.unstubAllGlobals());

async function fillForm(values: { email?: string; first?: string; last?: string; password?: string }) {
  const user = userEvent.setup();
  await screen.findByRole('heading', { name: 'Create account' });
  if (values.email) await user.type(screen.getByLabelText(/^Email/), values.email);
  if (values.first) await user.type(screen.getByLabelText(/^First name/), values.first);
  if (values.last) await user.type(screen.getByLabelText(/^Last name/), values.last);
  if (values.password) await user.type(screen.getByLabelText(/^Password/), values.password);
  await user.click(screen.getByRole('button', { name: 'Create account' }));
  return user;
}

describe('/sign-in/register', () => {
  it('validates every field after the first attempt', async () => {
    const backend = fakeBackend();
    renderAuth('/sign-in/register', backend);
    await screen.findByRole('heading', { name: 'Create account' });
    expect(screen.queryByText('Please enter your name')).toBeNull();
    await fillForm({});
    expect(await screen.findByText('Please enter your email address')).toBeInTheDocument();
    expect(screen.getAllByText('Please enter your name')).toHaveLength(2);
    expect(screen.getByText('Please enter a password')).toBeInTheDocument();
    expect(backend.register).not.toHaveBeenCalled();
  });

  it('applies the district-SSO rule but not the city-government one', async () => {
    const backend = fakeBackend();
    renderAuth('/sign-in/register/pupil%40district.test', backend);
    const user = await fillForm({ first: 'A', last: 'B', password: 'secret1' });
    expect(await screen.findByText('Please sign in using your district SSO such as Clever or Schoology')).toBeInTheDocument();
    expect(backend.register).not.toHaveBeenCalled();
    const email = screen.getByLabelText(/^Email/);
    await user.clear(email);
    await user.type(email, 'clerk@town.city.test');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('heading', { name: 'Verify your email' })).toBeInTheDocument();
    expect(backend.register).toHaveBeenCalledWith({ email: 'clerk@town.city.test', displayName: 'A B', password: 'secret1' });
  });

  it('refuses sign-up when the address is not allowed as a teacher (403)', async () => {
    server = serveAllowed({ status: 403, body: { code: 'not_allowed_as_teacher', message: 'no' } });
    const backend = fakeBackend();
    renderAuth('/sign-in/register', backend);
    await fillForm({ email: 'staff@school.test', first: 'Ada', last: 'Lovelace', password: 'secret1' });
    expect(await screen.findByRole('alert')).toHaveTextContent("You can't sign up as admin with this email address");
    expect(backend.register).not.toHaveBeenCalled();
    const request = server.requests[0];
    expect(request?.url).toBe('/auth/allowed-as-teacher');
    expect(request?.text).toBe('email=staff%40school.test');
  });

  it('offers Sign in when the address already has an account', async () => {
    const backend = fakeBackend({
      register: vi.fn(() => Promise.reject(new AuthFailure('auth/email-already-in-use', 'An account already exists with this email address.', 400))),
    });
    renderAuth('/sign-in/register', backend);
    const user = await fillForm({ email: 'ada@school.test', first: 'Ada', last: 'Lovelace', password: 'secret1' });
    const signIn = await screen.findByRole('link', { name: 'Sign in' });
    await user.click(signIn);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/sign-in/email/ada%40school.test'));
  });

  it('creates the account and moves on to "Verify your email"', async () => {
    const backend = fakeBackend({ register: vi.fn(() => Promise.resolve({ ...adaIdentity, emailVerified: false })) });
    renderAuth('/sign-in/register/ada%40school.test', backend);
    await fillForm({ first: ' Ada ', last: 'Lovelace', password: 'secret1' });
    expect(await screen.findByRole('heading', { name: 'Verify your email' })).toBeInTheDocument();
    expect(backend.register).toHaveBeenCalledWith({ email: 'ada@school.test', displayName: 'Ada Lovelace', password: 'secret1' });
    expect(screen.getByText('ada@school.test')).toBeInTheDocument();
  });

  it('Cancel goes back to sign-in', async () => {
    renderAuth('/sign-in/register', fakeBackend());
    await userEvent.setup().click(await screen.findByRole('link', { name: 'Cancel' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('puts the cursor in the first field; with the address in the route, in the first one left to fill', async () => {
    const first = renderAuth('/sign-in/register', fakeBackend());
    const email = await screen.findByRole('textbox', { name: /^Email/ });
    await waitFor(() => expect(email).toHaveFocus());
    expect(email).toHaveAttribute('autocomplete', 'email');
    first.unmount();
    renderAuth('/sign-in/register/ada%40school.test', fakeBackend());
    const firstName = await screen.findByRole('textbox', { name: /^First name/ });
    await waitFor(() => expect(firstName).toHaveFocus());
  });
});
