import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { PEER_PORT_RANGE } from './env.js';

/**
 * A learning platform for LTI 1.3, run by the test (nothing of the server's code): its own RSA key pair and JWKS, a
 * course page whose link starts the tool's login, and an authorisation endpoint that answers the tool's
 * authentication request with an id_token signed with jose, posted from the browser (response_mode form_post).
 */
export interface E2ePlatform {
  issuer: string;
  clientId: string;
  deploymentId: string;
  jwksUrl: string;
  authEndpoint: string;
  tokenEndpoint: string;
  /** The course page: a link that opens the tool for this user. */
  coursePage(user: { sub: string; name: string; role: 'Instructor' | 'Learner' }): string;
  close(): Promise<void>;
}

const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/';
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

export async function startE2ePlatform(options: { loginUrl: string; launchUrl: string }): Promise<E2ePlatform> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const kid = `e2e-${randomUUID().slice(0, 8)}`;
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const clientId = `e2e-client-${randomUUID().slice(0, 8)}`;
  const deploymentId = `e2e-deployment-${randomUUID().slice(0, 8)}`;
  const users = new Map<string, { sub: string; name: string; role: 'Instructor' | 'Learner' }>();
  let issuer = '';
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', issuer);
    const html = (body: string) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
    if (url.pathname === '/jwks') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
      return;
    }
    if (url.pathname === '/course') {
      const hint = url.searchParams.get('hint') ?? '';
      const fields = { iss: issuer, login_hint: hint, target_link_uri: options.launchUrl, client_id: clientId, lti_deployment_id: deploymentId };
      const inputs = Object.entries(fields).map(([k, v]) => `<input type="hidden" name="${k}" value="${esc(v)}">`).join('');
      html(`<!doctype html><html lang="en"><title>Course</title><main><h1>English 7</h1><form method="post" action="${esc(options.loginUrl)}">${inputs}<button>Open the book tool</button></form></main></html>`);
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
      void new SignJWT({
        nonce,
        name: user.name,
        [`${CLAIM}message_type`]: 'LtiResourceLinkRequest',
        [`${CLAIM}version`]: '1.3.0',
        [`${CLAIM}deployment_id`]: deploymentId,
        [`${CLAIM}target_link_uri`]: options.launchUrl,
        [`${CLAIM}resource_link`]: { id: 'e2e-link' },
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
            `<!doctype html><html lang="en"><title>Signing in</title><body><form method="post" action="${esc(options.launchUrl)}"><input type="hidden" name="id_token" value="${esc(idToken)}"><input type="hidden" name="state" value="${esc(state)}"><button>Continue</button></form><script>document.forms[0].submit()</script></body></html>`,
          ),
        );
      return;
    }
    response.writeHead(404).end();
  });
  const port = await listen(server);
  // By the console's host name: on plain http the tool's state cookie is SameSite=Lax, which a browser sends with the
  // platform's form post only when the platform is on the same site (on https it is SameSite=None; Secure).
  issuer = `http://localhost:${port}`;
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
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
