import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JWK } from 'jose';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { appWithPlatform } from '../../../test/lti.helpers.js';
import { buildOrganisation } from '../../../test/factories.js';
import { CLAIM, DL_CLAIM, ROLE, startPlatform, type PlatformSimulator } from '../../../test/lti-platform.js';

/**
 * Deep Linking 2.0 with the independent platform simulator (test/lti-platform.ts): a teacher's LtiDeepLinkingRequest
 * opens the picker, the choice comes back to the platform as an LtiDeepLinkingResponse the simulator verifies with the
 * tool's published keys, and a later launch of that link lands on the chosen target.
 */
const APP_URL = 'https://app.quire.test';
let t: TestApp;
let platform: PlatformSimulator;
let orgId: string;
let launchUrl: string;

beforeAll(async () => {
  ({ t, launchUrl, platform, orgId } = await appWithPlatform(APP_URL, 'Simulated LMS'));
});
afterAll(async () => {
  await platform?.close();
  await t?.close();
});

const form = { 'content-type': 'application/x-www-form-urlencoded' };

/** The platform's login and launch with `overrides` on the id_token's claims. */
async function launchWith(app: TestApp, overrides: Record<string, unknown>, p: PlatformSimulator = platform) {
  const login = await app.app.inject({
    method: 'GET',
    url: `/lti/1.3/login?${new URLSearchParams({ iss: p.issuer, login_hint: 'hint', target_link_uri: launchUrl, client_id: p.clientId })}`,
  });
  expect(login.statusCode, login.body).toBe(302);
  const redirect = new URL(login.headers.location ?? '');
  const setCookie = [login.headers['set-cookie'] ?? []].flat();
  const cookie = setCookie.find((c) => c.startsWith('lti_state_'))?.split(';')[0] ?? '';
  const idToken = await p.idToken({ nonce: redirect.searchParams.get('nonce') ?? '', overrides });
  return app.app.inject({
    method: 'POST',
    url: '/lti/1.3/launch',
    headers: { ...form, cookie },
    payload: new URLSearchParams({ id_token: idToken, state: redirect.searchParams.get('state') ?? '' }).toString(),
  });
}

const attribute = (html: string, name: string, attr: string) => new RegExp(`name="${name}"[^>]*${attr}="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';
const contextOf = (html: string) => attribute(html, 'context', 'value');

async function choose(app: TestApp, context: string, choice: Record<string, string>) {
  return app.app.inject({ method: 'POST', url: '/lti/1.3/deep-link', headers: form, payload: new URLSearchParams({ context, ...choice }).toString() });
}

async function toolJwks(app: TestApp): Promise<{ keys: JWK[] }> {
  return (await app.app.inject({ method: 'GET', url: '/lti/1.3/jwks' })).json();
}

function expectPage(response: { statusCode: number; headers: Record<string, unknown>; body: string }, status: number, text: RegExp) {
  expect(response.statusCode, response.body).toBe(status);
  expect(String(response.headers['content-type'])).toContain('text/html');
  expect(response.body).toMatch(text);
}

describe('a deep linking request from a teacher', () => {
  it('shows the picker, and answers the platform with a signed LtiDeepLinkingResponse for a book', async () => {
    const sub = `teacher-${randomUUID().slice(0, 8)}`;
    const data = `platform-data-${randomBytes(600).toString('base64url')}`;
    const returnUrl = `${platform.issuer}/deep-link-return?course=7`;
    const picker = await launchWith(t, { sub, ...platform.deepLinkingRequest({ returnUrl, data }) });
    expectPage(picker, 200, /What should this link open\?/);
    // The picker may be shown in the platform's frame; its form goes to the tool only.
    expect(String(picker.headers['content-security-policy'])).toContain('frame-ancestors *');
    expect(String(picker.headers['content-security-policy'])).toContain("form-action 'self'");
    expect(picker.headers['x-frame-options']).toBeUndefined();
    expect(picker.body).toMatch(/<fieldset role="radiogroup" aria-labelledby="target-legend">/);
    expect(picker.body).toMatch(/<input type="radio" id="target-home" name="target" value="home" checked>\s*<label for="target-home">The Quire home page<\/label>/);
    expect(picker.body).toMatch(/<label for="target-book">A book<\/label>/);
    expect(picker.body).toMatch(/<label for="book-id">Book id<\/label>/);
    expect(picker.body).toMatch(/<button type="submit">Add the link<\/button>/);

    // The teacher was signed in as the platform user's own account (a teacher member, the launch audited).
    const link = await t.app.db.selectFrom('lti_users').select('user_id').where('lti_user_id', '=', `lti1p3:${platform.issuer} ${sub}`).executeTakeFirstOrThrow();
    const member = await t.app.db.selectFrom('members').select(['is_student', 'role']).where('organisation_id', '=', orgId).where('user_id', '=', link.user_id).executeTakeFirstOrThrow();
    expect(member).toEqual({ is_student: false, role: 600 });

    const answer = await choose(t, contextOf(picker.body), { target: 'book', bookId: 'book-42' });
    expectPage(answer, 200, /Returning to your learning platform/);
    // An auto-submitted form posting JWT to the return URL (the script allowed by its hash, nothing else).
    expect(answer.body).toContain(`action="${returnUrl.replace(/&/g, '&amp;')}"`);
    expect(answer.body).toMatch(/<form [^>]*method="post"/);
    expect(String(answer.headers['content-security-policy'])).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(answer.body).toMatch(/<button type="submit">Continue to your learning platform<\/button>/);
    const jwt = attribute(answer.body, 'JWT', 'value');

    const verified = await platform.verifyDeepLinkingResponse(jwt, await toolJwks(t), { data });
    expect(verified.contentItems).toEqual([
      { type: 'ltiResourceLink', title: 'A book in Quire (book-42)', url: launchUrl, custom: { target: 'book:book-42' } },
    ]);
    expect(verified.kid).toBe((await toolJwks(t)).keys[0]?.kid);
  });

  it('links the product’s home page; without data, none is echoed; every answer has its own nonce', async () => {
    const picker = await launchWith(t, platform.deepLinkingRequest({}));
    expect(picker.statusCode, picker.body).toBe(200);
    const context = contextOf(picker.body);
    // A book id typed before choosing the home page is not used.
    const first = await choose(t, context, { target: 'home', bookId: 'ignored' });
    const second = await choose(t, context, { target: 'home' });
    const [a, b] = await Promise.all(
      [first, second].map(async (r) => platform.verifyDeepLinkingResponse(attribute(r.body, 'JWT', 'value'), await toolJwks(t), { data: undefined })),
    );
    expect(a?.contentItems).toEqual([{ type: 'ltiResourceLink', title: 'Quire', url: launchUrl, custom: { target: 'home' } }]);
    expect(a?.claims.nonce).not.toBe(b?.claims.nonce);
  });

  it('asks again for a missing or malformed book id, signing nothing', async () => {
    const picker = await launchWith(t, platform.deepLinkingRequest({}));
    const context = contextOf(picker.body);
    for (const bookId of ['', '   ', 'no spaces allowed', 'x'.repeat(129), '<script>']) {
      const again = await choose(t, context, { target: 'book', bookId });
      expectPage(again, 400, /What should this link open\?/);
      expect(again.body).toContain('aria-invalid="true"');
      expect(again.body).toMatch(/id="book-id-error"[^>]*>Enter the book’s id/);
      expect(again.body).not.toContain('name="JWT"');
      // The teacher's choice is kept, and the same context lets them try again.
      expect(again.body).toMatch(/value="book" checked/);
      expect(contextOf(again.body)).toBe(context);
      expect(again.body).not.toContain('<script>');
    }
    expectPage(await choose(t, context, { target: 'somewhere' }), 400, /What should this link open\?/);
  });

  it('refuses a choice that does not come from a launch, or came too late', async () => {
    const picker = await launchWith(t, platform.deepLinkingRequest({}));
    const context = contextOf(picker.body);
    expectPage(await choose(t, `${context}x`, { target: 'home' }), 401, /could not be opened[\s\S]*add the link again/);
    expectPage(await choose(t, '', { target: 'home' }), 401, /add the link again/);
    expectPage(await choose(t, 'a.b.c', { target: 'home' }), 401, /add the link again/);
    const [body, signature] = context.split('.') as [string, string];
    const tampered = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
    tampered.r = 'https://evil.example/steal';
    expectPage(await choose(t, `${Buffer.from(JSON.stringify(tampered)).toString('base64url')}.${signature}`, { target: 'home' }), 401, /add the link again/);
    const json = await t.app.inject({ method: 'POST', url: '/lti/1.3/deep-link', headers: { 'content-type': 'application/json' }, payload: { context, target: 'home' } });
    expect(json.statusCode).toBe(415);
  });
});

describe('deep linking requests that are refused: a friendly 4xx page, nothing written', () => {
  it('a student may not choose what a link opens', async () => {
    const sub = `student-${randomUUID().slice(0, 8)}`;
    const response = await launchWith(t, { sub, [`${CLAIM}roles`]: [ROLE.learner], ...platform.deepLinkingRequest({}) });
    expectPage(response, 403, /Only a teacher can choose what a link opens/);
    expect(await t.app.db.selectFrom('lti_users').select('user_id').where('lti_user_id', '=', `lti1p3:${platform.issuer} ${sub}`).executeTakeFirst()).toBeUndefined();
  });

  it('no deep_link_return_url, or no deep linking settings at all', async () => {
    const settings = platform.deepLinkingRequest({});
    const withoutReturn = { ...settings, [`${DL_CLAIM}deep_linking_settings`]: { accept_types: ['ltiResourceLink'] } };
    expectPage(await launchWith(t, withoutReturn), 400, /where to return/);
    expectPage(await launchWith(t, { ...settings, [`${DL_CLAIM}deep_linking_settings`]: undefined }), 400, /where to return/);
    expectPage(await launchWith(t, platform.deepLinkingRequest({ returnUrl: 'javascript:alert(1)' })), 400, /where to return/);
  });

  it('a platform that accepts no LTI resource link', async () => {
    expectPage(await launchWith(t, platform.deepLinkingRequest({ acceptTypes: ['file', 'html'] })), 400, /resource link/);
  });

  it('a return URL that is not https, in production', async () => {
    const prod = await buildTestApp({ APP_URL, NODE_ENV: 'production', LTI_ENCRYPTION_KEY: randomBytes(32).toString('hex') });
    const other = await startPlatform({ toolLaunchUrl: launchUrl });
    try {
      const prodOrg = await buildOrganisation(prod.app.db);
      // Registered directly: production takes https platforms only, and the simulator serves http on this computer.
      await prod.app.db
        .insertInto('lti_platforms')
        .values({
          id: randomUUID(),
          organisation_id: prodOrg.id,
          name: 'Simulated LMS',
          issuer: other.issuer,
          client_id: other.clientId,
          deployment_ids: [other.deploymentId],
          auth_endpoint: other.authEndpoint,
          token_endpoint: other.tokenEndpoint,
          jwks_url: other.jwksUrl,
          created_at: new Date(),
          updated_at: new Date(),
        })
        .execute();
      expectPage(await launchWith(prod, other.deepLinkingRequest({ returnUrl: `${other.issuer}/deep-link-return` }), other), 400, /https/);
      // An https return URL is taken.
      const picker = await launchWith(prod, other.deepLinkingRequest({ returnUrl: 'https://lms.example.edu/deep-link-return' }), other);
      expectPage(picker, 200, /What should this link open\?/);
    } finally {
      await other.close();
      await prod.close();
    }
  });
});

describe('a link made by deep linking, launched later', () => {
  it('lands on the chosen target: the app receives it beside the single-use token', async () => {
    const resourceLaunch = (custom: Record<string, unknown> | undefined) => launchWith(t, { [`${CLAIM}custom`]: custom });
    const landed = async (custom: Record<string, unknown> | undefined) => {
      const response = await resourceLaunch(custom);
      expect(response.statusCode, response.body).toBe(302);
      const url = new URL(response.headers.location ?? '');
      expect(`${url.origin}${url.pathname}`).toBe(`${APP_URL}/lti`);
      expect(url.searchParams.get('token')).toBeTruthy();
      return { target: url.searchParams.get('target'), bookId: url.searchParams.get('bookId') };
    };
    expect(await landed({ target: 'book:book-42' })).toEqual({ target: 'book', bookId: 'book-42' });
    expect(await landed({ target: 'home' })).toEqual({ target: 'home', bookId: null });
    // No target, or one this tool does not know: the product's home, as every launch before deep linking.
    expect(await landed(undefined)).toEqual({ target: null, bookId: null });
    expect(await landed({ target: 'book:<script>' })).toEqual({ target: null, bookId: null });
    expect(await landed({ target: 42 })).toEqual({ target: null, bookId: null });
  });
});
