import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { consoleOrigin, sessionCookieFrom, signIn } from '../../../test/auth.js';
import { startTestOidcProvider, type TestOidcProvider } from '../../../test/oidc-provider.js';

const PUBLIC_URL = 'http://localhost:3100';
const PORT = 3531;

let t: TestApp;
let idp: TestOidcProvider;
let origin: string;

beforeAll(async () => {
  idp = await startTestOidcProvider({
    port: PORT,
    clients: [
      { clientId: 'quire-google', clientSecret: 'google-secret', redirectUri: `${PUBLIC_URL}/identity/callback/google` },
      { clientId: 'quire-o365', clientSecret: 'o365-secret', redirectUri: `${PUBLIC_URL}/sign-in/office-365` },
    ],
  });
  t = await buildTestApp({
    PUBLIC_URL,
    GOOGLE_OIDC_ISSUER: idp.issuer,
    GOOGLE_OIDC_CLIENT_ID: 'quire-google',
    GOOGLE_OIDC_CLIENT_SECRET: 'google-secret',
    OFFICE365_OIDC_ISSUER: idp.issuer,
    OFFICE365_OIDC_CLIENT_ID: 'quire-o365',
    OFFICE365_OIDC_CLIENT_SECRET: 'o365-secret',
  });
  origin = consoleOrigin(t.app);
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

const unique = (label: string) => `${label}-${Math.random().toString(36).slice(2, 8)}@school.example.org`;

/** name=value pairs of Set-Cookie headers, merged into a Cookie header. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(setCookie: string | string[] | null | undefined): void {
    for (const line of [setCookie ?? []].flat()) {
      const [pair] = line.split(';');
      const index = pair?.indexOf('=') ?? -1;
      if (!pair || index < 0) continue;
      const value = pair.slice(index + 1);
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(pair.slice(0, index));
      else this.cookies.set(pair.slice(0, index), value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** Starts a provider sign-in at the server; returns the provider URL and the browser's cookies. */
async function start(providerId: 'google' | 'office365', jar = new CookieJar()) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/identity/sign-in/social',
    headers: { origin, cookie: jar.header() },
    payload: { provider: providerId, callbackURL: '/sign-in?provider=done', errorCallbackURL: '/sign-in?provider=failed', disableRedirect: true },
  });
  expect(response.statusCode).toBe(200);
  jar.take(response.headers['set-cookie']);
  return { url: response.json().url as string, jar };
}

/** Follows the provider's redirects (its own cookies kept) until it sends the browser back to Quire. */
async function atProvider(url: string): Promise<URL> {
  const jar = new CookieJar();
  let next = url;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(next, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.take(response.headers.getSetCookie());
    const location = response.headers.get('location');
    if (!location) throw new Error(`provider answered ${response.status} without a redirect: ${await response.text()}`);
    const target = new URL(location, next);
    if (target.origin === PUBLIC_URL) return target;
    next = target.toString();
  }
  throw new Error('too many redirects at the provider');
}

/** The browser arriving back at Quire's callback (Office 365 comes through the console page). */
async function callback(providerId: 'google' | 'office365', back: URL, jar: CookieJar) {
  const path = providerId === 'office365' ? `/identity/callback/office365${back.search}` : back.pathname + back.search;
  if (providerId === 'office365') expect(back.pathname).toBe('/sign-in/office-365');
  const response = await t.app.inject({ method: 'GET', url: path, headers: { cookie: jar.header() } });
  jar.take(response.headers['set-cookie']);
  return response;
}

describe('OpenID Connect sign-in (Google and Office 365)', () => {
  it('offers both configured providers', async () => {
    const methods = await t.app.inject({ method: 'GET', url: '/auth/methods' });
    expect(methods.json()).toEqual({ google: true, office365: true, email: true });
  });

  it('Google happy path: a verified user with a session and the google.com provider', async () => {
    const email = unique('google');
    idp.nextOutcome = { person: { email, emailVerified: true, name: 'Grace Google' } };
    const { url, jar } = await start('google');
    const back = await atProvider(url);
    const response = await callback('google', back, jar);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toMatch(/\/sign-in\?provider=done$/);
    expect(sessionCookieFrom(response.headers['set-cookie'])).toBeDefined();
    const session = await t.app.inject({ method: 'GET', url: '/identity/get-session', headers: { cookie: jar.header() } });
    expect(session.json().user).toMatchObject({ email, name: 'Grace Google', emailVerified: true });
    const providers = await t.app.inject({ method: 'GET', url: `/api/users/v2/providers/${encodeURIComponent(email)}` });
    expect(providers.json()).toEqual(['google.com']);
  });

  it('Office 365 happy path through the {host}/sign-in/office-365 redirect URI, asking User.Read', async () => {
    const email = unique('office');
    idp.nextOutcome = { person: { email, emailVerified: true, name: 'Otto Office' } };
    const { url, jar } = await start('office365');
    expect(new URL(url).searchParams.get('scope')?.split(' ')).toContain('User.Read');
    expect(new URL(url).searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/sign-in/office-365`);
    const response = await callback('office365', await atProvider(url), jar);
    expect(response.headers.location).toMatch(/provider=done$/);
    const token = await t.app.inject({ method: 'GET', url: '/identity/token', headers: { cookie: jar.header() } });
    expect(token.statusCode).toBe(200);
  });

  it('a wrong state is refused without a session', async () => {
    idp.nextOutcome = { person: { email: unique('state'), emailVerified: true, name: 'Sam State' } };
    const { url, jar } = await start('google');
    const back = await atProvider(url);
    back.searchParams.set('state', 'forged-state');
    const response = await callback('google', back, jar);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toMatch(/error=/);
    expect(sessionCookieFrom(response.headers['set-cookie'])).toBeUndefined();
  });

  it('an unverified e-mail claim gives an unverified user (no organisation roles)', async () => {
    const email = unique('claim');
    idp.nextOutcome = { person: { email, emailVerified: false, name: 'Una Verified' } };
    const { url, jar } = await start('google');
    const response = await callback('google', await atProvider(url), jar);
    expect(response.headers.location).toMatch(/provider=done$/);
    const session = await t.app.inject({ method: 'GET', url: '/identity/get-session', headers: { cookie: jar.header() } });
    expect(session.json().user.emailVerified).toBe(false);
  });

  it('denied consent comes back as error=access_denied', async () => {
    idp.nextOutcome = { deny: true };
    const { url, jar } = await start('office365');
    const back = await atProvider(url);
    expect(back.searchParams.get('error')).toBe('access_denied');
    const response = await callback('office365', back, jar);
    expect(response.headers.location).toMatch(/provider=failed.*error=access_denied/);
    expect(sessionCookieFrom(response.headers['set-cookie'])).toBeUndefined();
  });

  it('an e-mail of another provider is refused; POST /api/token then answers 401 with providerIds', async () => {
    const email = unique('conflict');
    await signIn(t.app, { email, password: 'secret-1' });
    idp.nextOutcome = { person: { email, emailVerified: true, name: 'Con Flict' } };
    const { url, jar } = await start('office365');
    const response = await callback('office365', await atProvider(url), jar);
    expect(response.headers.location).toMatch(/error=account_not_linked/);
    const token = await t.app.inject({ method: 'POST', url: '/api/token', headers: { origin, cookie: jar.header() }, payload: { token: '' } });
    expect(token.statusCode).toBe(401);
    expect(token.json()).toMatchObject({ code: 'auth/account-exists-with-different-credential', providerIds: ['password'] });
  });
});
