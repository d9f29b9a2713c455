import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { Frame, Page } from '@playwright/test';
import { PEER_PORT_RANGE } from './env.js';

/**
 * A learning platform for LTI 1.3, run by the test (nothing of the server's code): its own RSA key pair and JWKS, a
 * course page whose link starts the tool's login, and an authorisation endpoint that answers the tool's
 * authentication request with an id_token signed with jose, posted from the browser (response_mode form_post). A
 * teacher's "Add the book tool" sends a deep linking request; its answer comes back to /deep-link-return, where the
 * platform verifies it with the tool's published keys as a platform does.
 */
export interface E2ePlatform {
  issuer: string;
  clientId: string;
  deploymentId: string;
  jwksUrl: string;
  authEndpoint: string;
  tokenEndpoint: string;
  /** The course page: a link that opens the tool for this user (with `deepLink`, one that adds the tool's link). */
  coursePage(user: PlatformUser): string;
  /**
   * A course page that opens the tool inside a frame of the platform's page, with the platform's storage offered to
   * the tool (LTI Client Side postMessage): `lti_storage_target=_parent`, the parent answering `lti.capabilities` and
   * naming its storage frame, which keeps what the tool puts there for the tool's origin only. `silent`: the storage
   * frame answers nothing (a platform that does not keep it).
   */
  framedCoursePage(user: PlatformUser, options?: { storage?: 'answers' | 'silent' }): string;
  /** What the platform's storage frames received, in order (subject, key, and the sender's origin). */
  storageMessages(): StorageMessage[];
  /** The deep linking answers the platform received, each verified or with why it was refused. */
  deepLinkAnswers(): DeepLinkAnswer[];
  close(): Promise<void>;
}

interface PlatformUser {
  sub: string;
  name: string;
  role: 'Instructor' | 'Learner';
  deepLink?: boolean;
  /** The custom parameters of the link launched (those of a link deep linking made). */
  custom?: Record<string, string>;
  /** Set by the framed course page: the authentication response carries the storage target back (as the spec says). */
  storageTarget?: string;
}

interface StorageMessage {
  subject: string;
  key?: string;
  origin: string;
}

/**
 * The platform's side of LTI Client Side postMessage, as the 1EdTech specification describes it: the parent answers
 * `lti.capabilities` with the messages it supports and the frame that handles them; the storage frame keeps values per
 * sender origin, answering `lti.put_data` and `lti.get_data` with `<subject>.response`, the request's message_id, key
 * and value (or an error) to the sender's window and origin. Every message is also reported to the test.
 */
function storageScript(role: 'parent' | 'frame', silent: boolean): string {
  return `(function () {
  var store = {};
  window.addEventListener('message', function (event) {
    var m = event.data;
    if (!m || typeof m !== 'object' || typeof m.subject !== 'string') return;
    fetch('/storage-log', { method: 'POST', body: JSON.stringify({ subject: m.subject, key: m.key, origin: event.origin }) });
    ${silent ? 'return;' : ''}
    var reply = { subject: m.subject + '.response', message_id: m.message_id };
    if (m.subject === 'lti.capabilities') {
      reply.supported_messages = [
        { subject: 'lti.capabilities' },
        { subject: 'lti.put_data', frame: 'post_message_forwarding' },
        { subject: 'lti.get_data', frame: 'post_message_forwarding' }
      ];
    } else if (${role === 'frame'} && m.subject === 'lti.put_data') {
      if (typeof m.key !== 'string' || typeof m.value !== 'string') {
        reply.error = { code: 'bad_request', message: 'key and value are required' };
      } else {
        store[event.origin + ' ' + m.key] = m.value;
        reply.key = m.key;
        reply.value = m.value;
      }
    } else if (${role === 'frame'} && m.subject === 'lti.get_data') {
      var found = Object.prototype.hasOwnProperty.call(store, event.origin + ' ' + m.key);
      reply.key = m.key;
      if (found) reply.value = store[event.origin + ' ' + m.key];
      else reply.error = { code: 'bad_request', message: 'no value for this key' };
    } else {
      reply.error = { code: 'unsupported_subject', message: 'not supported here' };
    }
    event.source.postMessage(reply, event.origin);
  });
})();`;
}

type DeepLinkAnswer = { ok: true; kid: string; claims: JWTPayload; data: string } | { ok: false; error: string };

const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/';
const DL_CLAIM = 'https://purl.imsglobal.org/spec/lti-dl/claim/';
const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

async function listen(server: Server): Promise<number> {
  for (let port = PEER_PORT_RANGE.last; port >= PEER_PORT_RANGE.first; port -= 1) {
    const ok = await new Promise<boolean>((done) => {
      server.once('error', () => done(false));
      server.listen(port, '127.0.0.1', () => done(true));
    });
    if (ok) return port;
  }
  throw new Error('no free port for the LTI 1.3 platform');
}

/**
 * `host`: the platform's host name (default `localhost`, the console's). `127.0.0.1` puts it on another site than the
 * tool, and gives it addresses of its own (its JWKS URL is not one another spec's platform had on the same port).
 */
export async function startE2ePlatform(options: { loginUrl: string; launchUrl: string; host?: 'localhost' | '127.0.0.1' }): Promise<E2ePlatform> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const kid = `e2e-${randomUUID().slice(0, 8)}`;
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const clientId = `e2e-client-${randomUUID().slice(0, 8)}`;
  const deploymentId = `e2e-deployment-${randomUUID().slice(0, 8)}`;
  const users = new Map<string, PlatformUser>();
  const answers: DeepLinkAnswer[] = [];
  const storageLog: StorageMessage[] = [];
  const toolKeys = createRemoteJWKSet(new URL('/lti/1.3/jwks', options.loginUrl));
  let issuer = '';

  /** What a platform checks of a tool's LtiDeepLinkingResponse (Deep Linking 2.0 §4.2), with the tool's public keys. */
  async function verifyAnswer(jwt: string, data: string): Promise<DeepLinkAnswer> {
    try {
      const { payload, protectedHeader } = await jwtVerify(jwt, toolKeys, { issuer: clientId, audience: issuer, requiredClaims: ['iat', 'exp', 'nonce'] });
      const problems = [
        payload[`${CLAIM}message_type`] !== 'LtiDeepLinkingResponse' && 'message_type',
        payload[`${CLAIM}version`] !== '1.3.0' && 'version',
        payload[`${CLAIM}deployment_id`] !== deploymentId && 'deployment_id',
        payload[`${DL_CLAIM}data`] !== data && 'data',
        !Array.isArray(payload[`${DL_CLAIM}content_items`]) && 'content_items',
        !protectedHeader.kid && 'kid',
      ].filter(Boolean);
      return problems.length ? { ok: false, error: `wrong ${problems.join(', ')}` } : { ok: true, kid: protectedHeader.kid ?? '', claims: payload, data };
    } catch (error) {
      return { ok: false, error: String(error) };
    }
  }
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', issuer);
    const html = (body: string) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
    if (url.pathname === '/jwks') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
      return;
    }
    if (url.pathname === '/storage-log' && request.method === 'POST') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        try {
          storageLog.push(JSON.parse(body) as StorageMessage);
        } catch {
          // Not a report of the platform's own pages.
        }
        response.writeHead(204).end();
      });
      return;
    }
    if (url.pathname === '/storage-frame') {
      const silent = url.searchParams.get('silent') === '1';
      html(`<!doctype html><html lang="en"><title>Storage</title><script>${storageScript('frame', silent)}</script></html>`);
      return;
    }
    if (url.pathname === '/framed-course') {
      const hint = url.searchParams.get('hint') ?? '';
      const silent = url.searchParams.get('silent') === '1';
      const fields = {
        iss: issuer,
        login_hint: hint,
        target_link_uri: options.launchUrl,
        client_id: clientId,
        lti_deployment_id: deploymentId,
        lti_storage_target: '_parent',
      };
      const inputs = Object.entries(fields).map(([k, v]) => `<input type="hidden" name="${k}" value="${esc(v)}">`).join('');
      html(
        `<!doctype html><html lang="en"><title>Course</title><main><h1>English 7</h1><form method="post" target="tool" action="${esc(options.loginUrl)}">${inputs}<button>Open the book tool here</button></form>` +
          `<iframe name="tool" title="Book tool" style="width:100%;height:30rem;border:1px solid #888"></iframe>` +
          `<iframe name="post_message_forwarding" title="Platform storage" src="/storage-frame${silent ? '?silent=1' : ''}" hidden></iframe></main>` +
          `<script>${storageScript('parent', silent)}</script></html>`,
      );
      return;
    }
    if (url.pathname === '/course') {
      const hint = url.searchParams.get('hint') ?? '';
      const fields = { iss: issuer, login_hint: hint, target_link_uri: options.launchUrl, client_id: clientId, lti_deployment_id: deploymentId };
      const inputs = Object.entries(fields).map(([k, v]) => `<input type="hidden" name="${k}" value="${esc(v)}">`).join('');
      const label = users.get(hint)?.deepLink ? 'Add the book tool' : 'Open the book tool';
      html(`<!doctype html><html lang="en"><title>Course</title><main><h1>English 7</h1><form method="post" action="${esc(options.loginUrl)}">${inputs}<button>${label}</button></form></main></html>`);
      return;
    }
    if (url.pathname === '/deep-link-return' && request.method === 'POST') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const form = new URLSearchParams(body);
        void verifyAnswer(form.get('JWT') ?? '', url.searchParams.get('data') ?? '').then((answer) => {
          answers.push(answer);
          const items = answer.ok ? (answer.claims[`${DL_CLAIM}content_items`] as Array<{ title?: string }>) : [];
          html(
            answer.ok
              ? `<!doctype html><html lang="en"><title>Link added</title><main><h1>Link added</h1><p>${esc(items.map((i) => i.title ?? '').join(', '))}</p></main></html>`
              : `<!doctype html><html lang="en"><title>Link refused</title><main><h1>Link refused</h1><p>${esc(answer.error)}</p></main></html>`,
          );
        });
      });
      return;
    }
    if (url.pathname === '/auth') {
      const user = users.get(url.searchParams.get('login_hint') ?? '');
      if (!user || url.searchParams.get('client_id') !== clientId || url.searchParams.get('redirect_uri') !== options.launchUrl) {
        response.writeHead(400).end('bad authentication request');
        return;
      }
      const nonce = url.searchParams.get('nonce') ?? '';
      const state = url.searchParams.get('state') ?? '';
      const data = `e2e-data-${randomUUID().slice(0, 8)}`;
      const message = user.deepLink
        ? {
            [`${CLAIM}message_type`]: 'LtiDeepLinkingRequest',
            [`${DL_CLAIM}deep_linking_settings`]: {
              // The data rides on the return URL's query too, so the answer can be checked against what was sent.
              deep_link_return_url: `${issuer}/deep-link-return?data=${data}`,
              accept_types: ['ltiResourceLink'],
              accept_presentation_document_targets: ['iframe', 'window'],
              data,
            },
          }
        : {
            [`${CLAIM}message_type`]: 'LtiResourceLinkRequest',
            [`${CLAIM}resource_link`]: { id: 'e2e-link' },
            ...(user.custom ? { [`${CLAIM}custom`]: user.custom } : {}),
          };
      void new SignJWT({
        nonce,
        name: user.name,
        ...message,
        [`${CLAIM}version`]: '1.3.0',
        [`${CLAIM}deployment_id`]: deploymentId,
        [`${CLAIM}target_link_uri`]: options.launchUrl,
        [`${CLAIM}roles`]: [`http://purl.imsglobal.org/vocab/lis/v2/membership#${user.role}`],
        [`${CLAIM}context`]: { id: 'course-7' },
      })
        .setProtectedHeader({ alg: 'RS256', kid })
        .setIssuer(issuer)
        .setAudience(clientId)
        .setSubject(user.sub)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(privateKey)
        .then((idToken) =>
          html(
            `<!doctype html><html lang="en"><title>Signing in</title><body><form method="post" action="${esc(options.launchUrl)}"><input type="hidden" name="id_token" value="${esc(idToken)}"><input type="hidden" name="state" value="${esc(state)}">${user.storageTarget ? `<input type="hidden" name="lti_storage_target" value="${esc(user.storageTarget)}">` : ''}<button>Continue</button></form><script>document.forms[0].submit()</script></body></html>`,
          ),
        );
      return;
    }
    response.writeHead(404).end();
  });
  const port = await listen(server);
  // By the console's host name: on plain http the tool's state cookie is SameSite=Lax, which a browser sends with the
  // platform's form post only when the platform is on the same site (on https it is SameSite=None; Secure).
  issuer = `http://${options.host ?? 'localhost'}:${port}`;
  return {
    issuer,
    clientId,
    deploymentId,
    jwksUrl: `${issuer}/jwks`,
    authEndpoint: `${issuer}/auth`,
    tokenEndpoint: `${issuer}/token`,
    coursePage(user) {
      const hint = `hint-${randomUUID().slice(0, 8)}`;
      users.set(hint, user);
      return `${issuer}/course?hint=${hint}`;
    },
    framedCoursePage(user, pageOptions = {}) {
      const hint = `hint-${randomUUID().slice(0, 8)}`;
      users.set(hint, { ...user, storageTarget: '_parent' });
      return `${issuer}/framed-course?hint=${hint}${pageOptions.storage === 'silent' ? '&silent=1' : ''}`;
    },
    storageMessages: () => [...storageLog],
    deepLinkAnswers: () => [...answers],
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/**
 * What the product's app does with the launch's one-time token: exchanges it for a session from its own origin (the
 * page or the platform's frame it landed in), with fetch and credentials. Answers the status and the signed-in user.
 */
export function exchangeLaunchToken(
  where: Pick<Page, 'evaluate'> | Pick<Frame, 'evaluate'>,
  base: string,
  token: string,
): Promise<{ status: number; body: { user?: { name: string; email: string } } }> {
  return where.evaluate(
    async ({ base, token }) => {
      const response = await fetch(`${base}/identity/one-time-token/verify`, {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      return { status: response.status, body: (await response.json()) as { user?: { name: string; email: string } } };
    },
    { base, token },
  );
}
