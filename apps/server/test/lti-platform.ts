import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';

/**
 * A learning platform's side of LTI 1.3, written for the tests and sharing nothing with the server's code: its own RSA
 * key pair, its JWKS served over HTTP on a loopback port, id_tokens signed with jose as a platform signs them.
 */
export interface PlatformSimulator {
  issuer: string;
  clientId: string;
  deploymentId: string;
  jwksUrl: string;
  authEndpoint: string;
  tokenEndpoint: string;
  kid: string;
  /** An id_token for a launch: the claims of a resource link launch, `overrides` on top (undefined removes one). */
  idToken(input: { nonce: string; overrides?: Record<string, unknown>; key?: CryptoKey; kid?: string; expiresIn?: number; issuedAt?: number }): Promise<string>;
  /** A second key pair the platform does not publish (a forged signature, an unknown kid). */
  otherKey: CryptoKey;
  /** How many times the JWKS was read. */
  jwksReads(): number;
  close(): Promise<void>;
}

export const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/';
export const ROLE = {
  instructor: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor',
  learner: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner',
  institutionFaculty: 'http://purl.imsglobal.org/vocab/lis/v2/institution/person#Faculty',
  institutionStudent: 'http://purl.imsglobal.org/vocab/lis/v2/institution/person#Student',
  systemAdministrator: 'http://purl.imsglobal.org/vocab/lis/v2/system/person#Administrator',
};

export async function startPlatform(options: { toolLaunchUrl: string; clientId?: string }): Promise<PlatformSimulator> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const other = await generateKeyPair('RS256', { extractable: true });
  const kid = `platform-key-${randomUUID().slice(0, 8)}`;
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  let reads = 0;
  const server: Server = createServer((request, response) => {
    if (request.url === '/jwks') {
      reads += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = options.clientId ?? `client-${randomUUID().slice(0, 8)}`;
  const deploymentId = `deployment-${randomUUID().slice(0, 8)}`;

  return {
    issuer,
    clientId,
    deploymentId,
    jwksUrl: `${issuer}/jwks`,
    authEndpoint: `${issuer}/auth`,
    tokenEndpoint: `${issuer}/token`,
    kid,
    otherKey: other.privateKey,
    jwksReads: () => reads,
    async idToken({ nonce, overrides = {}, key = privateKey, kid: useKid = kid, expiresIn = 3600, issuedAt }) {
      const now = Math.floor(Date.now() / 1000);
      const claims: Record<string, unknown> = {
        iss: issuer,
        aud: clientId,
        sub: `user-${randomUUID().slice(0, 8)}`,
        nonce,
        name: 'Ada Teacher',
        given_name: 'Ada',
        family_name: 'Teacher',
        email: 'ada@school.example.org',
        [`${CLAIM}message_type`]: 'LtiResourceLinkRequest',
        [`${CLAIM}version`]: '1.3.0',
        [`${CLAIM}deployment_id`]: deploymentId,
        [`${CLAIM}target_link_uri`]: options.toolLaunchUrl,
        [`${CLAIM}resource_link`]: { id: 'resource-link-1', title: 'Class books' },
        [`${CLAIM}roles`]: [ROLE.instructor],
        [`${CLAIM}context`]: { id: 'course-7', label: 'ENG 7', title: 'English 7' },
        [`${CLAIM}tool_platform`]: { guid: 'platform-guid-1', name: 'Simulated LMS' },
        [`${CLAIM}launch_presentation`]: { document_target: 'iframe', return_url: 'https://lms.example.edu/courses/7' },
        ...overrides,
      };
      for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
      const iat = issuedAt ?? now;
      return new SignJWT(claims as JWTPayload)
        .setProtectedHeader({ alg: 'RS256', kid: useKid, typ: 'JWT' })
        .setIssuedAt(iat)
        .setExpirationTime(iat + expiresIn)
        .sign(key);
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
