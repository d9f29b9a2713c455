import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAuth } from '../auth-test-helpers.js';
import { fakeFetch, type FakeAnswer } from '../../../test/fake-fetch.js';
import { adaIdentity, fakeBackend } from '../../../test/fake-session.js';

const unverified = { ...adaIdentity, emailVerified: false };
const serveResend = (answer: FakeAnswer) => fakeFetch({ 'POST /api/resend-email/:email': answer });

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('/sign-in/verify-email', () => {
  it('polls every 10 s and goes to sign-in once verified', async () => {
    const getSession = vi.fn().mockResolvedValue(unverified);
    const backend = fakeBackend({ getSession });
    renderAuth('/sign-in/verify-email', backend);
    expect(await screen.findByRole('heading', { name: 'Verify your email' })).toBeInTheDocument();
    expect(getSession).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(getSession).toHaveBeenCalledTimes(2);
    getSession.mockResolvedValue(adaIdentity);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    // Verified: the admin session is opened, and sign-in sends the user on into the console.
    expect(backend.openAdminSession).toHaveBeenCalled();
    expect(await screen.findByText('Console home')).toBeInTheDocument();
  });

  it('resends the mail and hides the confirmation after 10 s', async () => {
    const server = serveResend({ body: { sent: true } });
    renderAuth('/sign-in/verify-email', fakeBackend({ getSession: vi.fn().mockResolvedValue(unverified) }));
    fireEvent.click(await screen.findByRole('button', { name: 'Resend email' }));
    expect(await screen.findByText('We have sent you another email.')).toBeInTheDocument();
    expect(server.requests[0]?.url).toBe('/api/resend-email/ada%40school.test');
    await act(() => vi.advanceTimersByTimeAsync(9_000));
    expect(screen.getByText('We have sent you another email.')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1_100));
    expect(screen.queryByText('We have sent you another email.')).toBeNull();
  });

  it('says so when the resend fails', async () => {
    serveResend({ status: 429, body: { code: 'auth/too-many-requests', message: 'x' } });
    renderAuth('/sign-in/verify-email', fakeBackend({ getSession: vi.fn().mockResolvedValue(unverified) }));
    fireEvent.click(await screen.findByRole('button', { name: 'Resend email' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong resending the email. Please try again.');
  });

  it('Back ends the unverified session and opens the e-mail sign-in', async () => {
    const backend = fakeBackend({ getSession: vi.fn().mockResolvedValue(unverified) });
    renderAuth('/sign-in/verify-email', backend);
    fireEvent.click(await screen.findByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('heading', { name: 'Sign in with email' })).toBeInTheDocument();
    expect(backend.signOut).toHaveBeenCalled();
  });
});
