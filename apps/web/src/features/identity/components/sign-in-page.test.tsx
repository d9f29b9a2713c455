import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthFailure } from '../../../lib/session/session-backend.js';
import { renderAuth } from '../auth-test-helpers.js';
import { fakeFetch } from '../../../test/fake-fetch.js';
import { fakeBackend } from '../../../test/fake-session.js';

const serveMethods = (methods: { google: boolean; office365: boolean; email: boolean }) => fakeFetch({ 'GET /auth/methods': { body: methods } });
beforeEach(() => {
  serveMethods({ google: true, office365: true, email: true });
});
afterEach(() => vi.unstubAllGlobals());

describe('/sign-in', () => {
  it('shows a spinner until auth is initialised, then the three methods and the terms line', async () => {
    let answer: (value: null) => void = () => undefined;
    const backend = fakeBackend({ getSession: vi.fn(() => new Promise<null>((resolve) => (answer = resolve))) });
    renderAuth('/sign-in', backend);
    expect(screen.getByLabelText('Loading')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Sign in' })).toBeNull();
    answer(null);
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in with Google' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in with Office 365' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in with email' })).toHaveAttribute('href', '/sign-in/email');
    expect(screen.getByText(/By signing in, you agree to our/)).toBeInTheDocument();
  });

  it('links the Terms of Service and the Privacy Policy of the terms line to their configured pages', async () => {
    renderAuth('/sign-in', fakeBackend());
    await screen.findByRole('heading', { name: 'Sign in' });
    const terms = screen.getByRole('link', { name: /Terms of Service/ });
    expect(terms).toHaveAttribute('href', 'https://provider.test/terms');
    expect(terms).toHaveAttribute('target', '_blank');
    expect(terms).toHaveAccessibleName(/^Terms of Service ?\(opens in a new tab\)$/);
    expect(screen.getByRole('link', { name: /Privacy Policy/ })).toHaveAttribute('href', 'https://provider.test/privacy');
  });

  it('hides providers the server is not configured for', async () => {
    serveMethods({ google: false, office365: false, email: true });
    renderAuth('/sign-in', fakeBackend());
    await screen.findByRole('heading', { name: 'Sign in' });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Sign in with Google' })).toBeNull());
    expect(screen.queryByRole('button', { name: 'Sign in with Office 365' })).toBeNull();
  });

  it('shows the Google refusal when the pop-up is closed, naming the product', async () => {
    const failure = new AuthFailure('auth/popup-closed-by-user', 'You need to allow the product access to your Google account to sign in with Google.');
    renderAuth('/sign-in', fakeBackend({ signInWithProvider: vi.fn().mockRejectedValue(failure) }));
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Sign in with Google' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You need to allow Quire access to your Google account to sign in with Google.');
  });

  it('signs in with Google and goes on to the console', async () => {
    const backend = fakeBackend();
    renderAuth('/sign-in', backend);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Sign in with Google' }));
    expect(await screen.findByText('Console home')).toBeInTheDocument();
    expect(backend.signInWithProvider).toHaveBeenCalledWith('google');
  });
});

describe('/sign-in/office-365', () => {
  it('shows the failure with Cancel and Try again', async () => {
    const signInWithProvider = vi.fn().mockRejectedValue(new AuthFailure('access_denied', 'You need to allow access to your account to continue.'));
    renderAuth('/sign-in', fakeBackend({ signInWithProvider }));
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sign in with Office 365' }));
    expect(await screen.findByRole('heading', { name: 'Sign in with Office 365' })).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent('You need to allow access to your account to continue.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(signInWithProvider).toHaveBeenCalledTimes(2);
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('starts the pop-up when opened directly', async () => {
    const backend = fakeBackend();
    renderAuth('/sign-in/office-365', backend);
    expect(await screen.findByText('Console home')).toBeInTheDocument();
    expect(backend.signInWithProvider).toHaveBeenCalledWith('office365');
  });
});
