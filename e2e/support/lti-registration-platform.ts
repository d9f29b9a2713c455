import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { PEER_PORT_RANGE } from './env.js';

/**
 * A learning platform's side of LTI Dynamic Registration 1.0, run by the test and written from the specification
 * (nothing of the server's code): its OpenID configuration, a registration endpoint that takes the tool's client
 * registration with its registration token and answers with a client id and deployment id, and an admin page that
 * opens the tool's registration URL in a frame (with `openid_configuration` and `registration_token`) and waits for the
 * tool's `org.imsglobal.lti.close` message.
 */
export interface E2eRegistrationPlatform {
  issuer: string;
  /** The platform's admin page that registers the tool from `registrationUrl`. */
  adminPage(registrationUrl: string): string;
  /** The registrations it accepted (client id, deployment id, and the tool's registration as sent). */
  registrations(): Array<{ clientId: string; deploymentId: string; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

async function listen(server: Server): Promise<number> {
  // From the middle of the range down: the LTI 1.3 platform of the other specs takes ports from its top.
  const middle = Math.floor((PEER_PORT_RANGE.first + PEER_PORT_RANGE.last) / 2);
  for (let port = middle; port >= PEER_PORT_RANGE.first; port -= 1) {
    const ok = await new Promise<boolean>((done) => {
      server.once('error', () => done(false));
      server.listen(port, '127.0.0.1', () => done(true));
    });
    if (ok) return port;
  }
  throw new Error('no free port for the registration platform');
}

export async function startE2eRegistrationPlatform(): Promise<E2eRegistrationPlatform> {
  const registrationToken = `reg-${randomUUID()}`;
  const accepted: Array<{ clientId: string; deploymentId: string; body: Record<string, unknown> }> = [];
  let origin = '';
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', origin);
    const json = (status: number, value: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer: origin,
        authorization_endpoint: `${origin}/auth`,
        token_endpoint: `${origin}/token`,
        jwks_uri: `${origin}/jwks`,
        registration_endpoint: `${origin}/register`,
        scopes_supported: ['openid'],
        response_types_supported: ['id_token'],
        id_token_signing_alg_values_supported: ['RS256'],
        'https://purl.imsglobal.org/spec/lti-platform-configuration': { product_family_code: 'moodle', version: '4.4' },
      });
    }
    if (url.pathname === '/register' && request.method === 'POST') {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      request.on('end', () => {
        if (request.headers.authorization !== `Bearer ${registrationToken}`) return json(401, { error: 'invalid_token' });
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          return json(400, { error: 'invalid_client_metadata' });
        }
        const clientId = `e2e-dr-${randomUUID().slice(0, 8)}`;
        const deploymentId = `e2e-dr-deployment-${randomUUID().slice(0, 8)}`;
        accepted.push({ clientId, deploymentId, body });
        const tool = (body['https://purl.imsglobal.org/spec/lti-tool-configuration'] ?? {}) as Record<string, unknown>;
        json(200, { ...body, client_id: clientId, 'https://purl.imsglobal.org/spec/lti-tool-configuration': { ...tool, deployment_id: deploymentId } });
      });
      return;
    }
    if (url.pathname === '/admin/tools') {
      const tool = new URL(url.searchParams.get('url') ?? '');
      tool.searchParams.set('openid_configuration', `${origin}/.well-known/openid-configuration`);
      tool.searchParams.set('registration_token', registrationToken);
      // The platform listens for the tool's close message (any origin may send it: it only closes the frame).
      const script = `window.addEventListener('message', function (event) {
  if (!event.data || event.data.subject !== 'org.imsglobal.lti.close') return;
  document.getElementById('registration').remove();
  document.getElementById('finished').hidden = false;
});`;
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(
          `<!doctype html><html lang="en"><title>Manage tools</title><main><h1>Manage tools</h1>` +
            `<iframe id="registration" title="Tool registration" src="${esc(tool.toString())}" style="width:100%;height:28rem;border:1px solid #888"></iframe>` +
            `<h2 id="finished" hidden>Registration finished</h2></main><script>${script}</script></html>`,
        );
      return;
    }
    response.writeHead(404).end();
  });
  const port = await listen(server);
  origin = `http://127.0.0.1:${port}`;
  return {
    issuer: origin,
    adminPage: (registrationUrl) => `${origin}/admin/tools?url=${encodeURIComponent(registrationUrl)}`,
    registrations: () => [...accepted],
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
