import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

/**
 * A learning platform's side of LTI Dynamic Registration 1.0, written for the tests from the specification and
 * sharing nothing with the server's code: an OpenID configuration (§3.4) at /.well-known/openid-configuration, and a
 * registration endpoint (§3.5) that takes the tool's client registration with the registration token as a Bearer
 * token and answers with a client id and a deployment id (§3.6). `configure` changes what it answers, for the refusals.
 */
export interface RegistrationPlatform {
  issuer: string;
  configurationUrl: string;
  registrationToken: string;
  /** The registrations it received: the Authorization header and the JSON body. */
  received(): Array<{ authorization: string | undefined; body: Record<string, unknown> }>;
  /** The client id and deployment id of the last registration it accepted. */
  lastClient(): { clientId: string; deploymentId: string } | null;
  configure(change: Partial<PlatformBehaviour>): void;
  close(): Promise<void>;
}

interface PlatformBehaviour {
  /** The issuer the configuration names (default: the platform's own origin). */
  issuer: string | null;
  /** The configuration's HTTP status. */
  configurationStatus: number;
  /** The registration endpoint's HTTP status. */
  registrationStatus: number;
  /** Whether the answer names a deployment id. */
  sendsDeployment: boolean;
}

export async function startRegistrationPlatform(): Promise<RegistrationPlatform> {
  const registrationToken = `reg-${randomUUID()}`;
  const received: Array<{ authorization: string | undefined; body: Record<string, unknown> }> = [];
  let last: { clientId: string; deploymentId: string } | null = null;
  const behaviour: PlatformBehaviour = { issuer: null, configurationStatus: 200, registrationStatus: 200, sendsDeployment: true };
  let origin = '';
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', origin);
    const json = (status: number, value: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (url.pathname === '/.well-known/openid-configuration' && request.method === 'GET') {
      if (behaviour.configurationStatus !== 200) return json(behaviour.configurationStatus, { error: 'not_found' });
      return json(200, {
        issuer: behaviour.issuer ?? origin,
        authorization_endpoint: `${origin}/auth`,
        token_endpoint: `${origin}/token`,
        token_endpoint_auth_methods_supported: ['private_key_jwt'],
        token_endpoint_auth_signing_alg_values_supported: ['RS256'],
        jwks_uri: `${origin}/jwks`,
        registration_endpoint: `${origin}/register`,
        scopes_supported: ['openid'],
        response_types_supported: ['id_token'],
        subject_types_supported: ['public', 'pairwise'],
        id_token_signing_alg_values_supported: ['RS256'],
        claims_supported: ['sub', 'iss', 'name', 'email'],
        'https://purl.imsglobal.org/spec/lti-platform-configuration': {
          product_family_code: 'moodle',
          version: '4.4',
          messages_supported: [{ type: 'LtiResourceLinkRequest' }, { type: 'LtiDeepLinkingRequest' }],
        },
      });
    }
    if (url.pathname === '/register' && request.method === 'POST') {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      request.on('end', () => {
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          return json(400, { error: 'invalid_client_metadata' });
        }
        received.push({ authorization: request.headers.authorization, body });
        if (request.headers.authorization !== `Bearer ${registrationToken}`) return json(401, { error: 'invalid_token' });
        if (request.headers['content-type'] !== 'application/json') return json(400, { error: 'invalid_client_metadata' });
        if (behaviour.registrationStatus !== 200) return json(behaviour.registrationStatus, { error: 'invalid_client_metadata' });
        const clientId = `dr-client-${randomUUID().slice(0, 8)}`;
        const deploymentId = `dr-deployment-${randomUUID().slice(0, 8)}`;
        last = { clientId, deploymentId };
        const toolConfiguration = body['https://purl.imsglobal.org/spec/lti-tool-configuration'] as Record<string, unknown> | undefined;
        json(200, {
          ...body,
          client_id: clientId,
          'https://purl.imsglobal.org/spec/lti-tool-configuration': { ...toolConfiguration, ...(behaviour.sendsDeployment ? { deployment_id: deploymentId } : {}) },
        });
      });
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    issuer: origin,
    configurationUrl: `${origin}/.well-known/openid-configuration`,
    registrationToken,
    received: () => [...received],
    lastClient: () => last,
    configure: (change) => Object.assign(behaviour, change),
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
