import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthFailure } from '../../../lib/session/session-backend.js';
import { renderAuth } from '../auth-test-helpers.js';
import { fakeFetch } from '../../../test/fake-fetch.js';
import { fakeBackend } from '../../../test/fake-session.js';

let server: ReturnType<typeof fakeServer>;
beforeEach(() => {
  sessionStorage.clear();
  server = fakeServer([]);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function fakeServer(answer: string[] | number) {
  return fakeFetch({
    'GET /api/users/v2/providers/:email': typeof answer === 'number' ? { status: answer, body: { code: 'x', message: 'x' } } : { body: answer },
    'GET /auth/methods': { body: { google: true, office365: true, email: true } },
  });
}

/** Answers the provider lookup with `providers` (or a status) and records the looked-up address. */
function providersAre(answer: string[] | number) {
  server = fakeServer(answer);
}

async function submitEmail(address: string) {
  const user = userEvent.setup();
  if (address) await user.type(await screen.findByLabelText(/^Email/), address);
  await user.click(screen.getByRole('button', { name: 'Next' }));
  return user;
}

describe('/sign-in/email', () => {
  it('shows no message before the first submit, then the §5 texts', async () => {
    renderAuth('/sign-in/email', fakeBackend());
    const input = await screen.findByLabelText(/^Email/);
    expect(screen.queryByText('Please enter your email address')).toBeNull();
    const user = await submitEmail('');
    expect(await screen.findByText('Please enter your email address')).toBeInTheDocument();
    await user.type(input, 'not-an-address');
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
    expect(server.requests.some((r) => r.path.includes('/providers/'))).toBe(false);
  });

  it('refuses district-SSO and city-government addresses before any lookup', async () => {
    renderAuth('/sign-in/email', fakeBackend());
    const user = await submitEmail('pupil@district.test');
    expect(await screen.findByText('Please sign in using your district SSO such as Clever or Schoology')).toBeInTheDocument();
    const input = screen.getByLabelText(/^Email/);
    await user.clear(input);
    await user.type(input, 'clerk@town.city.test');
    expect(
      await screen.findByText(
        'Your district prevents the use of email and password logins to the admin console, please use the preferred Single Sign On methods.',
      ),
    ).toBeInTheDocument();
  });

  it('adds the password step for a password account and signs in', async () => {
    providersAre(['password']);
    const backend = fakeBackend();
    renderAuth('/sign-in/email', backend);
    const user = await submitEmail('Ada@School.test');
    const password = await screen.findByLabelText(/^Password/);
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Please enter a password')).toBeInTheDocument();
    await user.type(password, 'abc');
    expect(await screen.findByText('Password must be at least 6 characters')).toBeInTheDocument();
    await user.type(password, 'defgh');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(backend.signInWithEmail).toHaveBeenCalledWith('ada@school.test', 'abcdefgh'));
    // Signed in with one organisation: straight into the console.
    expect(await screen.findByText('Console home')).toBeInTheDocument();
    expect(server.requests.some((r) => r.url.includes('/api/users/v2/providers/ada%40school.test'))).toBe(true);
  });

  it('shows the server refusal of the password', async () => {
    providersAre(['password']);
    const backend = fakeBackend({
      signInWithEmail: vi.fn(() => Promise.reject(new AuthFailure('auth/wrong-password', 'Invalid email or password', 400))),
    });
    renderAuth('/sign-in/email/ada%40school.test', backend);
    // Opened with an address: the lookup runs by itself.
    const password = await screen.findByLabelText(/^Password/);
    const user = userEvent.setup();
    await user.type(password, 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
  });

  it('prompts for Google or Office 365 when the account uses them', async () => {
    providersAre(['google.com']);
    renderAuth('/sign-in/email', fakeBackend());
    await submitEmail('ada@school.test');
    expect(await screen.findByText('This email address is registered with a Google account.')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Sign in with Google' })).toHaveLength(1);

    providersAre(['office365']);
    const user = userEvent.setup();
    const input = screen.getByLabelText(/^Email/);
    await user.type(input, 'x');
    await user.clear(input);
    await user.type(input, 'grace@school.test');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('This email address is registered with an Office 365 account.')).toBeInTheDocument();
  });

  it.each([
    ['no account', [] as string[]],
    ['a failed lookup', 500],
  ])('goes to registration on %s', async (_label, answer) => {
    providersAre(answer);
    renderAuth('/sign-in/email', fakeBackend());
    await submitEmail('new@school.test');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/sign-in/register/new%40school.test'));
    expect(await screen.findByRole('heading', { name: 'Create account' })).toBeInTheDocument();
    expect(screen.getByLabelText(/^Email/)).toHaveValue('new@school.test');
  });

  it("stays on the e-mail step when the look-up was rate limited, instead of sending a known admin to 'Create account'", async () => {
    providersAre(429);
    renderAuth('/sign-in/email', fakeBackend());
    await submitEmail('admin@school.test');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Too many requests from this address. Please try again in a few minutes.');
    expect(screen.getByTestId('location')).toHaveTextContent('/sign-in/email');
    expect(screen.getByTestId('location')).not.toHaveTextContent('register');
    expect(screen.queryByRole('heading', { name: 'Create account' })).not.toBeInTheDocument();
  });

  it("links 'Forgotten password?' to the recovery screen", async () => {
    renderAuth('/sign-in/email', fakeBackend());
    await userEvent.setup().click(await screen.findByRole('link', { name: 'Forgotten password?' }));
    expect(await screen.findByRole('heading', { name: 'Recover password' })).toBeInTheDocument();
  });

  it('puts the cursor in the e-mail field, whose autocomplete says it is an e-mail address', async () => {
    providersAre(['password']);
    renderAuth('/sign-in/email', fakeBackend());
    const email = await screen.findByRole('textbox', { name: /^Email/ });
    await waitFor(() => expect(email).toHaveFocus());
    expect(email).toHaveAttribute('autocomplete', 'email');
  });
});
