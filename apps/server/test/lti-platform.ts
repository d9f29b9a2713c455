import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createLocalJWKSet, exportJWK, exportPKCS8, generateKeyPair, jwtVerify, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';

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
  /** The platform's private key (PKCS #8 PEM), for a signer in another language to sign as the platform. */
  privateKeyPem: string;
  /** A second key pair the platform does not publish (a forged signature, an unknown kid). */
  otherKey: CryptoKey;
  /** The claims of a deep linking request (LtiDeepLinkingRequest) returning to `returnUrl`, for `idToken`'s overrides. */
  deepLinkingRequest(input: { returnUrl?: string; data?: string; acceptTypes?: string[] }): Record<string, unknown>;
  /**
   * What the platform does with a tool's LtiDeepLinkingResponse: verifies it with the tool's published keys (its JWKS,
   * as read from the tool) and checks the claims the Deep Linking 2.0 specification requires; throws when one is wrong.
   */
  verifyDeepLinkingResponse(jwt: string, toolJwks: { keys: JWK[] }, expected: { data?: string }): Promise<DeepLinkingResponse>;
  /** How many times the JWKS was read. */
  jwksReads(): number;
  close(): Promise<void>;
}

export const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/';
export const DL_CLAIM = 'https://purl.imsglobal.org/spec/lti-dl/claim/';

/** A verified LtiDeepLinkingResponse: its header's kid and its content items. */
interface DeepLinkingResponse {
  kid: string;
  claims: JWTPayload;
  contentItems: Array<{ type: string; title?: string; url?: string; custom?: Record<string, string> }>;
}

function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`the deep linking response is wrong: ${what}`);
}
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
    privateKeyPem: await exportPKCS8(privateKey),
    otherKey: other.privateKey,
    jwksReads: () => reads,
    deepLinkingRequest({ returnUrl = `${issuer}/deep-link-return`, data, acceptTypes = ['ltiResourceLink'] }) {
      return {
        [`${CLAIM}message_type`]: 'LtiDeepLinkingRequest',
        [`${CLAIM}resource_link`]: undefined,
        [`${DL_CLAIM}deep_linking_settings`]: {
          deep_link_return_url: returnUrl,
          accept_types: acceptTypes,
          accept_presentation_document_targets: ['iframe', 'window'],
          accept_multiple: false,
          auto_create: true,
          ...(data === undefined ? {} : { data }),
        },
      };
    },
    async verifyDeepLinkingResponse(jwt, toolJwks, expected) {
      // The tool signs as the client (iss) for the platform (aud), with a key its JWKS publishes.
      const { payload, protectedHeader } = await jwtVerify(jwt, createLocalJWKSet(toolJwks), {
        issuer: clientId,
        audience: issuer,
        algorithms: ['RS256', 'RS384', 'RS512', 'PS256', 'ES256'],
        requiredClaims: ['iss', 'aud', 'iat', 'exp', 'nonce'],
      });
      check(typeof protectedHeader.kid === 'string' && toolJwks.keys.some((k) => k.kid === protectedHeader.kid), 'kid is not one the tool publishes');
      check(typeof payload.nonce === 'string' && payload.nonce.length >= 16, 'nonce');
      const now = Math.floor(Date.now() / 1000);
      check(typeof payload.iat === 'number' && Math.abs(payload.iat - now) <= 60, 'iat');
      check(typeof payload.exp === 'number' && payload.exp > now && payload.exp - payload.iat <= 3600, 'exp');
      check(payload[`${CLAIM}deployment_id`] === deploymentId, 'deployment_id');
      check(payload[`${CLAIM}message_type`] === 'LtiDeepLinkingResponse', 'message_type');
      check(payload[`${CLAIM}version`] === '1.3.0', 'version');
      check(payload[`${DL_CLAIM}data`] === expected.data, `data: ${String(payload[`${DL_CLAIM}data`])}`);
      const items = payload[`${DL_CLAIM}content_items`];
      check(Array.isArray(items), 'content_items');
      return { kid: protectedHeader.kid, claims: payload, contentItems: items as DeepLinkingResponse['contentItems'] };
    },
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
