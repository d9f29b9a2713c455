import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyticsSessionSchema, portfolioDownloadSchema } from '@quire/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleOrigin } from '../../../test/auth.js';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { orgWithAdmin } from '../../../test/teachers.helpers.js';
import { createUrlSigner } from '../analytics/signed-url.js';
import { CONFLICT_COOKIE } from '../identity/identity.routes.js';
import { signValue } from '../identity/tokens.js';
import { signedDownloadPath } from '../portfolios/portfolio-link.js';
import { PORTFOLIO_EXPORT_QUEUE } from '../portfolios/portfolios.job.js';
import { SIGNED_LINK_PURPOSES, linkSigner, signedLinkKey, type LinkSigner, type SignedLinkPurpose } from './signed-links.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

const SECRET = 'a-test-secret-a-test-secret-a-test-secret';
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

/** An organisation with one registered learning platform (deployment 'd'), for the two LTI purposes. */
async function orgWithPlatform(): Promise<{ orgId: string; id: string }> {
  const { orgId } = await orgWithAdmin(t.app);
  const id = `platform-${Math.random().toString(36).slice(2, 8)}`;
  await t.app.db
    .insertInto('lti_platforms')
    .values({ id, organisation_id: orgId, name: 'LMS', issuer: `https://${id}.example.edu`, client_id: 'c', deployment_ids: ['d'], auth_endpoint: 'https://lms.example.edu/auth', token_endpoint: 'https://lms.example.edu/token', jwks_url: 'https://lms.example.edu/jwks', created_at: new Date(), updated_at: new Date() })
    .execute();
  return { orgId, id };
}

/** HKDF-SHA256 written out from RFC 5869 §2.2–2.3 (extract, then one block of expand), apart from node:crypto's. */
function rfc5869(ikm: string, salt: string, info: string): Buffer {
  const prk = createHmac('sha256', salt).update(ikm).digest();
  return createHmac('sha256', prk).update(Buffer.concat([Buffer.from(info), Buffer.from([1])])).digest();
}

describe('the link signer', () => {
  it('derives each purpose its own key from AUTH_SECRET by HKDF-SHA256, none of them the secret or its plain HMAC', () => {
    const keys = SIGNED_LINK_PURPOSES.map((purpose) => signedLinkKey(SECRET, purpose));
    for (const [n, purpose] of SIGNED_LINK_PURPOSES.entries()) {
      expect(keys[n]!.equals(rfc5869(SECRET, 'quire signed links', `quire signed link v1: ${purpose}`)), purpose).toBe(true);
    }
    expect(new Set(keys.map((key) => key.toString('hex'))).size).toBe(SIGNED_LINK_PURPOSES.length);
    expect(keys.some((key) => key.equals(Buffer.from(SECRET)))).toBe(false);
    // Another secret, other keys: changing AUTH_SECRET ends every link.
    expect(signedLinkKey(`${SECRET}!`, 'analytics-data').equals(keys[0]!)).toBe(false);
  });

  it('has no fallback key: without AUTH_SECRET, or with one shorter than 32 characters, it refuses to exist', () => {
    for (const secret of [undefined, '', 'x'.repeat(31)]) {
      for (const purpose of SIGNED_LINK_PURPOSES) expect(() => linkSigner(secret, purpose)).toThrow(/AUTH_SECRET/);
    }
  });

  it('checks the signature before the expiry, and binds every field in its place', () => {
    const links = linkSigner(SECRET, 'analytics-data');
    const expires = inAnHour();
    const signature = links.sign(['org-a', 'session-1'], expires);
    expect(links.check(['org-a', 'session-1'], expires, signature)).toBe('valid');
    expect(links.check(['org-a', 'session-1'], expires, signature, (expires + 1) * 1000)).toBe('expired');
    expect(links.check(['org-a', 'session-1'], expires + 1, signature)).toBe('forged');
    expect(links.check(['org-a', 'session-2'], expires, signature)).toBe('forged');
    // One field cannot pass for two, whatever it holds.
    expect(links.check(['org-a","session-1'], expires, signature)).toBe('forged');
    expect(links.check(['org-a\nsession-1'], expires, signature)).toBe('forged');
    expect(links.check(['org-a', 'session-1', ''], expires, signature)).toBe('forged');
    expect(links.check(['org-a', 'session-1'], expires, '')).toBe('forged');
    expect(links.check(['org-a', 'session-1'], Number.NaN, signature)).toBe('forged');
  });
});

/**
 * Each purpose's route, sent its own link with every field right but signed with the key of `purpose`: it must
 * answer `accepted` only for its own purpose and `refused` for every other.
 */
interface SignedRoute {
  purpose: SignedLinkPurpose;
  prepare(): Promise<(links: LinkSigner) => Promise<string>>;
  accepted: string;
  refused: string;
}

/** A signer of another purpose passed where the types only allow this route's: what a forger would try. */
const as = <P extends SignedLinkPurpose>(links: LinkSigner) => links as unknown as LinkSigner<P>;

const routes: SignedRoute[] = [
  {
    purpose: 'analytics-data',
    accepted: '200',
    refused: '403 signed_url_invalid',
    async prepare() {
      const { orgId, headers } = await orgWithAdmin(t.app);
      const opened = analyticsSessionSchema.parse((await t.app.inject({ method: 'GET', url: `/analytics/sessions/app/organisations/${orgId}`, headers })).json());
      const sessionId = new URLSearchParams(opened.signedQuery).get('session') ?? '';
      return async (links) => {
        const { query } = createUrlSigner(as<'analytics-data'>(links), 900).sign(orgId, sessionId);
        const answer = await t.app.inject({ method: 'GET', url: `/analytics/users/organisations/${orgId}/students/count?${query}` });
        return answer.statusCode === 200 ? '200' : `${answer.statusCode} ${answer.json().code}`;
      };
    },
  },
  {
    purpose: 'portfolio-download',
    accepted: '200',
    refused: '403 link_invalid',
    async prepare() {
      const a = await orgWithAdmin(t.app, { student_portfolios: true });
      await t.app.portfolios.requestBuild(a.orgId);
      await t.app.jobs.waitForIdle(PORTFOLIO_EXPORT_QUEUE, 30_000);
      const exported = await t.app.inject({ method: 'GET', url: `/rest/${a.orgId}/student-portfolios-export/latest`, headers: a.headers });
      const url = new URL(portfolioDownloadSchema.parse(exported.json()).url, 'http://x');
      const link = {
        organisationId: a.orgId,
        exportId: decodeURIComponent(url.pathname.split('/')[4] ?? ''),
        userId: url.searchParams.get('user') ?? '',
        sessionId: url.searchParams.get('session') ?? '',
        expires: Number(url.searchParams.get('expires')),
      };
      return async (links) => {
        const answer = await t.app.inject({ method: 'GET', url: signedDownloadPath(as<'portfolio-download'>(links), link) });
        return answer.statusCode === 200 ? '200' : `${answer.statusCode} ${answer.json().code}`;
      };
    },
  },
  {
    purpose: 'sign-in-conflict',
    accepted: '401 auth/account-exists-with-different-credential',
    refused: '401 auth/invalid-id-token',
    async prepare() {
      const email = `conflict-${Math.random().toString(36).slice(2, 8)}@school.example.org`;
      return async (links) => {
        const cookie = `${CONFLICT_COOKIE}=${signValue(as<'sign-in-conflict'>(links), email, new Date(Date.now() + 300_000))}`;
        const answer = await t.app.inject({ method: 'POST', url: '/api/token', headers: { origin: consoleOrigin(t.app), cookie }, payload: { token: '' } });
        return `${answer.statusCode} ${answer.json().code}`;
      };
    },
  },
  {
    purpose: 'lti-state',
    accepted: '401 id_token',
    refused: '401 state',
    async prepare() {
      const { id } = await orgWithPlatform();
      return async (links) => {
        const state = { p: id, n: 'nonce', i: 'cookie-id', h: 'hint', m: null, t: `${t.env.PUBLIC_URL}/lti/1.3/launch`, d: null, s: null, e: Math.floor(Date.now() / 1000) + 300 };
        const signature = as<'lti-state'>(links).sign([state.p, state.n, state.i, state.h, '', state.t, '', ''], state.e);
        const answer = await t.app.inject({
          method: 'POST',
          url: '/lti/1.3/launch',
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `lti_state_cookie-id=${signature}` },
          payload: new URLSearchParams({ id_token: 'not-a-token', state: `${Buffer.from(JSON.stringify(state)).toString('base64url')}.${signature}` }).toString(),
        });
        return `${answer.statusCode} ${answer.body.includes('does not come from a login') ? 'state' : answer.body.includes('id_token') ? 'id_token' : answer.body}`;
      };
    },
  },
  {
    // The registration address an admin pastes into a platform: with its own signature it is read, and only the missing
    // platform configuration stops it; signed for anything else it is an address that has expired or been used.
    purpose: 'lti-registration',
    accepted: '400 configuration',
    refused: '401 address',
    async prepare() {
      const { orgId } = await orgWithPlatform();
      return async (links) => {
        const token = { o: orgId, u: 'user-1', i: 'address-1', e: Math.floor(Date.now() / 1000) + 300 };
        const signature = as<'lti-registration'>(links).sign([token.o, token.u, token.i], token.e);
        const answer = await t.app.inject({ method: 'GET', url: `/lti/1.3/register?t=${Buffer.from(JSON.stringify(token)).toString('base64url')}.${signature}` });
        return `${answer.statusCode} ${answer.body.includes('has expired or has been used') ? 'address' : 'configuration'}`;
      };
    },
  },
  {
    purpose: 'lti-deep-link',
    accepted: '200 answer',
    refused: '401 context',
    async prepare() {
      const { orgId, id } = await orgWithPlatform();
      return async (links) => {
        const context = { p: id, d: 'd', u: 'user-1', o: orgId, r: 'https://lms.example.edu/return', a: null, e: Math.floor(Date.now() / 1000) + 300 };
        const body = Buffer.from(JSON.stringify(context)).toString('base64url');
        const signature = as<'lti-deep-link'>(links).sign([body], context.e);
        const answer = await t.app.inject({
          method: 'POST',
          url: '/lti/1.3/deep-link',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ context: `${body}.${signature}`, target: 'home' }).toString(),
        });
        return `${answer.statusCode} ${answer.body.includes('name="JWT"') ? 'answer' : answer.body.includes('add the link again') ? 'context' : answer.body}`;
      };
    },
  },
];

describe('a link signed for one purpose is refused by every other purpose', () => {
  it('lists a route for every purpose', () => {
    expect(routes.map((route) => route.purpose).sort()).toEqual([...SIGNED_LINK_PURPOSES].sort());
  });

  it.each(routes)('$purpose: its own link opens it; the same link signed for any other purpose is refused', async (route) => {
    const send = await route.prepare();
    const outcomes: Record<string, string> = {};
    const expected: Record<string, string> = {};
    for (const purpose of SIGNED_LINK_PURPOSES) {
      outcomes[purpose] = await send(linkSigner(t.env.AUTH_SECRET, purpose));
      expected[purpose] = purpose === route.purpose ? route.accepted : route.refused;
    }
    expect(outcomes).toEqual(expected);
  });
});

describe('one way to sign', () => {
  it('no server code but the link signer computes an HMAC, except for keys that are not ours to choose', () => {
    const src = fileURLToPath(new URL('../../', import.meta.url));
    // Each of these signs with a key someone else set: an LTI consumer's secret (OAuth 1.0a), the chat-support
    // provider's secret (its identity-verification hash), the identity provider's session cookie (as Better Auth
    // signs it, checked before the database is asked).
    const others = new Set(['modules/lti/oauth-signature.ts', 'modules/chat-support/chat-support.service.ts', 'modules/identity/session-actor.ts']);
    const files = (readdirSync(src, { recursive: true }) as string[]).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
    const signing = files
      .filter((file) => /createHmac|hkdfSync|\bcreateSign\b/.test(readFileSync(join(src, file), 'utf8')))
      .map((file) => relative(src, join(src, file)).split('\\').join('/'));
    expect(signing.filter((file) => !others.has(file)).sort()).toEqual(['modules/access/signed-links.ts']);
  });
});
