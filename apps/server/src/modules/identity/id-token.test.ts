import { createHmac, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { SignJWT, type JSONWebKeySet, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { pythonPeer } from '../../../test/python-peer.js';
import { verifyIdTokenWith } from './id-token.js';

/**
 * ID tokens made by implementations other than the verifier's: `jose` signing on its own, PyJWT (Debian's python3-jwt
 * with python3-cryptography, which .ci/run installs) through test/peers/jwt_signer.py, and tokens written by hand for
 * what no library will sign. Each is verified as `POST /api/token` verifies the console's token.
 */

const peer = pythonPeer('jwt_signer.py', ['jwt', 'cryptography'], ['python3-jwt', 'python3-cryptography']);

const ISSUER = 'https://quire.example.org';
const NOW = new Date('2026-03-02T10:00:00Z');
const seconds = Math.floor(NOW.getTime() / 1000);

/** An Ed25519 key pair and its public JWK as GET /identity/jwks lists it (alg, crv, x, kty, kid). */
function keyPair(kid: string): { privateKey: KeyObject; jwk: JWK } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, jwk: { alg: 'EdDSA', ...publicKey.export({ format: 'jwk' }), kid } };
}
const ours = keyPair('key-1');
const stranger = keyPair('key-1');
const keys: JSONWebKeySet = { keys: [ours.jwk] };

const claims = (overrides: Record<string, unknown> = {}) => ({
  sub: 'user-1', iss: ISSUER, aud: ISSUER, iat: seconds - 60, exp: seconds + 3600,
  email: 'ada@school.example.org', name: 'Ada', email_verified: true, bc_orgs: { 'org-1': 'admin' }, ...overrides,
});

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

async function joseSigned(payload: Record<string, unknown>, key = ours.privateKey, kid = 'key-1'): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: 'EdDSA', kid, typ: 'JWT' }).sign(key);
}

const verify = (token: string) => verifyIdTokenWith(keys, token, ISSUER, NOW);

describe('ID tokens signed by jose', () => {
  it('accepts a token of our key, issuer and audience, with its claims', async () => {
    expect(await verify(await joseSigned(claims()))).toMatchObject({ sub: 'user-1', email: 'ada@school.example.org', bc_orgs: { 'org-1': 'admin' } });
    expect(await verify(await joseSigned(claims({ aud: ['another-client', ISSUER] })))).toMatchObject({ sub: 'user-1' });
  });

  it.each([
    ['expired', claims({ exp: seconds - 1 })],
    ['no expiry', claims({ exp: undefined })],
    ['no subject', claims({ sub: undefined })],
    ['another audience', claims({ aud: 'https://elsewhere.example.org' })],
    ['another issuer', claims({ iss: 'https://elsewhere.example.org' })],
    ['not yet valid', claims({ nbf: seconds + 600 })],
  ])('refuses a token with %s', async (_name, payload) => {
    expect(await verify(await joseSigned(payload))).toBeNull();
  });

  it("refuses another key's signature under our kid, an unknown kid, and a changed signature or payload", async () => {
    expect(await verify(await joseSigned(claims(), stranger.privateKey))).toBeNull();
    expect(await verify(await joseSigned(claims(), ours.privateKey, 'key-2'))).toBeNull();
    const [header, payload, signature] = (await joseSigned(claims())).split('.') as [string, string, string];
    const flipped = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    expect(await verify(`${header}.${payload}.${flipped}`)).toBeNull();
    expect(await verify(`${header}.${b64(claims({ sub: 'someone-else' }))}.${signature}`)).toBeNull();
  });
});

describe('ID tokens no library should sign', () => {
  it('refuses alg none, HS256 keyed with our public key, and tokens that are not JWS at all', async () => {
    const none = `${b64({ alg: 'none', kid: 'key-1' })}.${b64(claims())}.`;
    // The classic confusion: HMAC keyed with the public key a verifier trusts for EdDSA.
    const hsBody = `${b64({ alg: 'HS256', kid: 'key-1', typ: 'JWT' })}.${b64(claims())}`;
    const hs256 = `${hsBody}.${createHmac('sha256', Buffer.from(ours.jwk.x!, 'base64url')).update(hsBody).digest('base64url')}`;
    for (const token of [none, hs256, '', 'a.b.c', '...', `${b64({ alg: 'EdDSA', kid: 'key-1' })}.not-json.sig`, `${b64({ alg: 'EdDSA', kid: 7 })}.${b64(claims())}.sig`, `${b64('[]')}.${b64('[]')}.x`]) {
      expect(await verify(token), token).toBeNull();
    }
  });
});

describe.skipIf(!peer.available)('ID tokens signed by Python PyJWT', () => {
  const pem = ours.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  const pythonSigned = (requests: Array<{ alg: string; key: string | null; headers?: Record<string, unknown>; payload: Record<string, unknown> }>): string[] => {
    return JSON.parse(peer.run(requests)) as string[];
  };

  it('accepts its EdDSA token of our key; refuses its expired, wrong-audience, wrong-issuer, none and HS256 tokens', async () => {
    const kid = { kid: 'key-1' };
    const [valid, expired, audience, issuer, none, hs256] = pythonSigned([
      { alg: 'EdDSA', key: pem, headers: kid, payload: claims() },
      { alg: 'EdDSA', key: pem, headers: kid, payload: claims({ exp: seconds - 1 }) },
      { alg: 'EdDSA', key: pem, headers: kid, payload: claims({ aud: 'https://elsewhere.example.org' }) },
      { alg: 'EdDSA', key: pem, headers: kid, payload: claims({ iss: 'https://elsewhere.example.org' }) },
      { alg: 'none', key: null, headers: kid, payload: claims() },
      { alg: 'HS256', key: ours.jwk.x!, headers: kid, payload: claims() },
    ]) as [string, string, string, string, string, string];
    expect(await verify(valid)).toMatchObject({ sub: 'user-1', iss: ISSUER, email_verified: true });
    const outcomes = { expired: await verify(expired), audience: await verify(audience), issuer: await verify(issuer), none: await verify(none), hs256: await verify(hs256) };
    expect(outcomes).toEqual({ expired: null, audience: null, issuer: null, none: null, hs256: null });
    const [header, payload, signature] = valid.split('.') as [string, string, string];
    expect(await verify(`${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BA' : 'AA'}`)).toBeNull();
  });
});
