import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, type FakeAnswer } from '../../test/fake-fetch.js';
import { getIdToken, httpSessionBackend, popupFailure } from './http-session-backend.js';
import { AuthFailure } from './session-backend.js';

const json = (body: unknown, status = 200): FakeAnswer => ({ status, body });
const user = { id: 'u1', email: 'ada@school.test', name: 'Ada Lovelace', image: null, emailVerified: true };
const adminSession = { uid: 'u1', email: 'ada@school.test', displayName: 'Ada Lovelace', emailVerified: true, bc_orgs: { 'org-1': 'admin' } };

afterEach(() => vi.unstubAllGlobals());

/** Answers by "METHOD path", through the one test fake (answers are checked against their contracts). */
const serve = (routes: Record<string, () => FakeAnswer>) => fakeFetch(routes);

async function failureOf(promise: Promise<unknown>): Promise<AuthFailure> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AuthFailure) return error;
    throw error;
  }
  throw new Error('did not fail');
}

describe('httpSessionBackend.signInWithEmail', () => {
  it('stops before the ID token when the session waits for its second step, and completes it afterwards', async () => {
    const server = serve({
      'POST /auth/email': () => json({ token: 'custom-2', emailVerified: true }),
      'POST /identity/one-time-token/verify': () => json({ session: { id: 's' }, user, twoStep: 'second-step' }),
    });
    const identity = await httpSessionBackend.signInWithEmail('ada@school.test', 'secret1');
    expect(identity.twoStep).toBe('second-step');
    // No ID token and no admin session yet: the server would refuse both (401 two_step_required).
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /auth/email', 'POST /identity/one-time-token/verify']);
  });

  it('signs in with the custom token, fetches the ID token and opens the admin session', async () => {
    const server = serve({
      'POST /auth/email': () => json({ token: 'custom-1', emailVerified: true }),
      'POST /identity/one-time-token/verify': () => json({ session: { id: 's' }, user }),
      'GET /identity/token': () => json({ token: 'id-token-1' }),
      'POST /api/token': () => json(adminSession),
    });
    const identity = await httpSessionBackend.signInWithEmail('ada@school.test', 'secret1');
    expect(identity).toEqual({
      user: { uid: 'u1', email: 'ada@school.test', displayName: 'Ada Lovelace', photoURL: null },
      emailVerified: true,
      twoStep: null,
    });
    const form = String(server.requests[0]?.text);
    expect(new URLSearchParams(form).get('isTeacher')).toBe('true');
    expect(JSON.parse(String(server.requests[3]?.text))).toEqual({
      token: 'id-token-1',
      userProperties: { isTeacher: true, needsLibraryOnboarding: false },
    });
    expect(getIdToken()).toBe('id-token-1');
  });

  it('does not open an admin session for an unverified account', async () => {
    serve({
      'POST /auth/email': () => json({ token: 'custom-1', emailVerified: false }),
      'POST /identity/one-time-token/verify': () => json({ session: { id: 's' }, user: { ...user, emailVerified: false } }),
    });
    expect((await httpSessionBackend.signInWithEmail('ada@school.test', 'secret1')).emailVerified).toBe(false);
  });

  it.each([
    [400, 'auth/wrong-password', 'Invalid email or password'],
    [400, 'auth/user-not-found', 'Invalid email or password'],
    [400, 'auth/district-sso', 'Please sign in using your district SSO such as Clever or Schoology'],
    [
      400,
      'auth/city-government',
      'Your district prevents the use of email and password logins to the admin console, please use the preferred Single Sign On methods.',
    ],
    [429, 'auth/too-many-requests', 'You have entered an incorrect password too many times. Please try again in a few minutes.'],
    [403, 'auth/user-disabled', 'This account has been disabled.'],
    [500, 'internal', 'There was a problem signing in, please try again.'],
  ])('maps %i %s to its §8 text', async (status, code, text) => {
    serve({ 'POST /auth/email': () => json({ code, message: 'server text' }, status) });
    expect((await failureOf(httpSessionBackend.signInWithEmail('ada@school.test', 'secret1'))).message).toBe(text);
  });
});

describe('httpSessionBackend.register', () => {
  it('keeps auth/email-already-in-use so the screen can offer Sign in', async () => {
    serve({ 'POST /auth/email': () => json({ code: 'auth/email-already-in-use', message: 'x' }, 400) });
    const failure = await failureOf(httpSessionBackend.register({ email: 'a@b.test', displayName: 'A B', password: 'secret1' }));
    expect(failure.code).toBe('auth/email-already-in-use');
  });
});

describe('popupFailure', () => {
  it.each([
    ['google', 'access_denied', 'You need to allow the product access to your Google account to sign in with Google.'],
    ['google', 'popup_closed', 'You need to allow the product access to your Google account to sign in with Google.'],
    ['google', 'state_mismatch', 'There was a problem signing in, please try again.'],
    ['office365', 'access_denied', 'You need to allow access to your account to continue.'],
    ['office365', 'server_error', 'Something went wrong logging you in'],
  ] as const)('%s %s', async (provider, error, text) => {
    expect((await popupFailure(provider, { ok: false, error, description: null })).message).toBe(text);
  });

  it("shows the provider's own message for other Office 365 errors", async () => {
    const failure = await popupFailure('office365', { ok: false, error: 'invalid_request', description: 'Tenant not allowed' });
    expect(failure.message).toBe('Tenant not allowed');
  });

  it.each([
    [['google.com'], 'You are already registered with a Google account, please use that to sign in'],
    [['password'], 'You are already registered with an email account, please use that to sign in'],
    [[], 'You already have account, please use that to sign in'],
  ])('names the other provider of an existing account (%j)', async (providerIds, text) => {
    serve({ 'POST /api/token': () => json({ code: 'auth/account-exists-with-different-credential', message: 'You already have account, please use that to sign in', providerIds }, 401) });
    expect((await popupFailure('office365', { ok: false, error: 'account_not_linked', description: null })).message).toBe(text);
  });
});
