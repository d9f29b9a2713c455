import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helper.js';
import { appWithPlatform, expectRefusalPage } from '../../../test/lti.helpers.js';
import type { PlatformSimulator } from '../../../test/lti-platform.js';

/**
 * LTI 1.3 launches whose login is kept in the platform's storage (LTI Client Side postMessage, `lti_storage_target`)
 * because the browser keeps no cookie in the platform's frame: the login page and the launch page, and the server's
 * checks of what the launch page reads back (the login's state signature and nonce, the nonce used once, the tool's
 * own origin).
 */
const APP_URL = 'https://app.quire.test';
let t: TestApp;
let platform: PlatformSimulator;
let orgId: string;
let launchUrl: string;
let toolOrigin: string;

interface StorageConfig {
  mode: 'put' | 'get';
  target: string;
  origin: string;
  items: Array<{ key: string; value?: string; field?: string }>;
  next?: string;
  timeoutMs: number;
}

function configOf(body: string): StorageConfig {
  const json = /<script type="application\/json" id="lti-storage">(.*?)<\/script>/s.exec(body)?.[1];
  expect(json, body).toBeDefined();
  return JSON.parse(json ?? '{}') as StorageConfig;
}

beforeAll(async () => {
  ({ t, launchUrl, platform, orgId } = await appWithPlatform(APP_URL, 'Storage LMS'));
  toolOrigin = new URL(launchUrl).origin;
});
afterAll(async () => {
  await platform?.close();
  await t?.close();
});

/** The platform's login with its storage frame named: the tool's page that keeps the state and nonce there. */
async function storageLogin(target = '_parent') {
  const params = new URLSearchParams({ iss: platform.issuer, login_hint: 'hint-7', target_link_uri: launchUrl, client_id: platform.clientId, lti_storage_target: target });
  const response = await t.app.inject({ method: 'GET', url: `/lti/1.3/login?${params}` });
  expect(response.statusCode, response.body).toBe(200);
  const config = configOf(response.body);
  const next = new URL(config.next ?? '');
  return { response, config, state: next.searchParams.get('state') ?? '', nonce: next.searchParams.get('nonce') ?? '' };
}

/** What the platform's storage holds after the login page's lti.put_data messages. */
const stored = (config: StorageConfig) => Object.fromEntries(config.items.map((i) => [i.key, i.value ?? '']));

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** The platform's form post of the id_token, with no cookie (the browser kept none in the frame). */
function platformLaunch(idToken: string, state: string) {
  return t.app.inject({
    method: 'POST',
    url: '/lti/1.3/launch',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: platform.issuer },
    payload: form({ id_token: idToken, state, lti_storage_target: '_parent' }),
  });
}

/** The tool's launch page posting what it read back from the platform's storage. */
function storageLaunch(fields: Record<string, string>, origin: string | null = toolOrigin) {
  return t.app.inject({
    method: 'POST',
    url: '/lti/1.3/launch/storage',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(origin ? { origin } : {}) },
    payload: form(fields),
  });
}

describe('a login with lti_storage_target', () => {
  it('answers a framable page that keeps the state and nonce for the platform’s auth origin only, then goes on to the platform', async () => {
    const { response, config, state, nonce } = await storageLogin();
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
    expect(csp).toContain('frame-ancestors *');
    expect(csp).toContain("form-action 'none'");
    expect(csp).not.toContain('unsafe-inline\'; script');
    expect(response.headers['x-frame-options']).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-store');
    expect(config).toMatchObject({ mode: 'put', target: '_parent', origin: new URL(platform.authEndpoint).origin });
    expect(config.items).toHaveLength(2);
    expect(config.items.map((i) => i.value)).toContain(nonce);
    expect(config.next?.startsWith(`${platform.authEndpoint}?`)).toBe(true);
    expect(state).not.toBe('');
    // The page offers the login again in a new window (without the storage) if the platform does not answer.
    const retry = /href="([^"]+)" target="_blank"/.exec(response.body)?.[1]?.replace(/&amp;/g, '&') ?? '';
    const retryUrl = new URL(retry);
    expect(retryUrl.pathname).toBe('/lti/1.3/login');
    expect(retryUrl.searchParams.get('lti_storage_target')).toBeNull();
    expect(retryUrl.searchParams.get('login_hint')).toBe('hint-7');
  });

  it('takes a named frame of the parent, and ignores a name no platform gives (the cookie alone carries the login)', async () => {
    expect((await storageLogin('post_message_forwarding')).config.target).toBe('post_message_forwarding');
    const params = new URLSearchParams({ iss: platform.issuer, login_hint: 'h', target_link_uri: launchUrl, client_id: platform.clientId, lti_storage_target: '"><script>' });
    const response = await t.app.inject({ method: 'GET', url: `/lti/1.3/login?${params}` });
    expect(response.statusCode).toBe(302);
  });
});

describe('a launch whose login is in the platform’s storage', () => {
  it('without a cookie, reads the state and nonce back first; with them, from the tool’s origin, signs the user in', async () => {
    const { config, state, nonce } = await storageLogin();
    const idToken = await platform.idToken({ nonce, overrides: { sub: `storage-${Math.random().toString(36).slice(2, 8)}` } });
    const page = await platformLaunch(idToken, state);
    expect(page.statusCode, page.body).toBe(200);
    expect(String(page.headers['content-security-policy'])).toMatch(/script-src 'sha256-/);
    const read = configOf(page.body);
    expect(read).toMatchObject({ mode: 'get', target: '_parent', origin: new URL(platform.authEndpoint).origin });
    expect(read.items.map((i) => i.key).sort()).toEqual(config.items.map((i) => i.key).sort());
    expect(page.body).toContain('action="/lti/1.3/launch/storage"');

    const values = stored(config);
    const fields = Object.fromEntries(read.items.map((i) => [i.field ?? '', values[i.key] ?? '']));
    const landed = await storageLaunch({ id_token: idToken, state, ...fields });
    expect(landed.statusCode, landed.body).toBe(302);
    const into = new URL(landed.headers.location ?? '');
    expect(`${into.origin}${into.pathname}`).toBe(`${APP_URL}/lti`);
    expect(into.searchParams.get('organisationId')).toBe(orgId);

    // The same values again: the nonce is used once (refused back to the platform's return URL: the token is its own).
    const again = await storageLaunch({ id_token: idToken, state, ...fields });
    expect(again.statusCode).toBe(302);
    const back = new URL(again.headers.location ?? '');
    expect(back.origin).toBe('https://lms.example.edu');
    expect(back.searchParams.get('lti_errormsg')).toMatch(/already been used/);
  });

  it('refuses a stored nonce or state that is not the login’s, and a wrong try spends nothing', async () => {
    const { config, state, nonce } = await storageLogin();
    const idToken = await platform.idToken({ nonce });
    const values = stored(config);
    const stateValue = config.items.find((i) => i.key.startsWith('state_'))?.value ?? '';
    const wrongNonce = await storageLaunch({ id_token: idToken, state, stored_state: stateValue, stored_nonce: `${nonce}x` });
    expectRefusalPage(wrongNonce, 401, /did not give back this launch/);
    expect(wrongNonce.body).toContain('Open Quire in a new window');
    expectRefusalPage(await storageLaunch({ id_token: idToken, state, stored_state: `${stateValue.slice(0, -2)}AA`, stored_nonce: nonce }), 401, /did not give back this launch/);
    expectRefusalPage(await storageLaunch({ id_token: idToken, state, stored_nonce: nonce }), 401, /did not give back this launch/);
    expect(Object.keys(values)).toHaveLength(2);
    // The right values still work: the refusals claimed no nonce.
    const landed = await storageLaunch({ id_token: idToken, state, stored_state: stateValue, stored_nonce: nonce });
    expect(landed.statusCode, landed.body).toBe(302);
  });

  it('refuses the storage launch from another origin, a sandboxed frame’s null origin, or no origin', async () => {
    const { config, state, nonce } = await storageLogin();
    const idToken = await platform.idToken({ nonce });
    const stateValue = config.items.find((i) => i.key.startsWith('state_'))?.value ?? '';
    const fields = { id_token: idToken, state, stored_state: stateValue, stored_nonce: nonce };
    for (const origin of ['https://evil.example', 'null', platform.issuer, null]) {
      const refused = await storageLaunch(fields, origin);
      expect(refused.statusCode, String(origin)).toBe(401);
      expectRefusalPage(refused, 401, /did not give back this launch/);
    }
    expect((await storageLaunch(fields)).statusCode).toBe(302);
  });

  it('refuses stored values for a login that did not use the storage (its cookie is what binds it)', async () => {
    const params = new URLSearchParams({ iss: platform.issuer, login_hint: 'hint-8', target_link_uri: launchUrl, client_id: platform.clientId });
    const login = await t.app.inject({ method: 'GET', url: `/lti/1.3/login?${params}` });
    expect(login.statusCode).toBe(302);
    const redirect = new URL(login.headers.location ?? '');
    const state = redirect.searchParams.get('state') ?? '';
    const nonce = redirect.searchParams.get('nonce') ?? '';
    const idToken = await platform.idToken({ nonce });
    const response = await storageLaunch({ id_token: idToken, state, stored_state: state.split('.')[1] ?? '', stored_nonce: nonce });
    expectRefusalPage(response, 401, /did not give back this launch/);
    // Without its cookie the platform's own post is the lost-session page, as before.
    expectRefusalPage(await platformLaunch(idToken, state), 401, /did not keep this launch/);
  });

  it('refuses a forged state before anything else, and answers junk with a page, never a 5xx', async () => {
    expectRefusalPage(await storageLaunch({ id_token: 'x', state: 'forged.state', stored_state: 'a', stored_nonce: 'b' }), 401, /does not come from a login/);
    expectRefusalPage(await storageLaunch({}), 401, /does not come from a login/);
    const json = await t.app.inject({ method: 'POST', url: '/lti/1.3/launch/storage', headers: { 'content-type': 'application/json', origin: toolOrigin }, payload: '{}' });
    expect(json.statusCode).toBe(415);
  });
});
