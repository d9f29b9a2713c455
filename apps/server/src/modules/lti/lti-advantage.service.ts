import { randomBytes } from 'node:crypto';
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import type { Kysely } from 'kysely';
import { emailSchema, LTI13_LOGIN_PATH } from '@quire/core';
import type { DB } from '../../db/types.js';
import { publicUrl, type Env } from '../../env.js';
import { linkSigner } from '../access/signed-links.js';
import * as repo from './lti-advantage.repository.js';
import { fail, LTI13_USER_PREFIX, provisionLaunchUser, type LaunchResult } from './lti-launch.service.js';
import { claimNonce } from './lti-launch.repository.js';
import { toolEndpoints } from './lti-platforms.service.js';
import { userKindFromRoles } from './lti-roles.js';
import { deepLinkRequestOf, type DeepLinkRequest } from './lti-deep-linking.service.js';
import { readSignedJson } from './lti-signed-json.js';

/**
 * LTI 1.3 launches (docs/lti.md "LTI 1.3"), as the 1EdTech Security Framework defines them: the platform starts an
 * OpenID Connect login at the tool (third-party initiated login), the tool answers with an authentication request
 * carrying a `state` and a `nonce` bound to the browser, and the platform posts an `id_token` to the launch URL. The
 * token is verified against the platform's keys, then the user is provisioned as an LTI 1.1 launch's is.
 */

const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/';
/** How long a login may take before its launch comes back (the state's lifetime). */
const STATE_SECONDS = 600;
/** Clock differences accepted on exp and iat. */
const LEEWAY_SECONDS = 60;
/**
 * An id_token older than this (by its iat) is refused, whatever its exp says (platforms give an hour): the nonce is
 * remembered longer than this (lti_nonces keeps 660 s), so a replay is always recognised.
 */
const MAX_TOKEN_AGE_SECONDS = 540;
/** The JWS algorithms a platform may sign with (asymmetric only: a shared secret would let any holder forge). */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384'];
/** The cookie that binds a login's state to the browser that started it. */
const STATE_COOKIE_PREFIX = 'lti_state_';

type Lti13MessageType = 'LtiResourceLinkRequest' | 'LtiDeepLinkingRequest';

/** What the login hands to the platform and back: signed, so it cannot be made up or changed. */
interface LoginState {
  /** The platform's id (lti_platforms). */
  p: string;
  /** The nonce the id_token must carry. */
  n: string;
  /** The id of the browser's state cookie. */
  i: string;
  /** The login's hints and target, to start it again in a new window when the browser kept no cookie. */
  h: string;
  m: string | null;
  t: string;
  d: string | null;
  /**
   * The platform's storage frame (`lti_storage_target`) when the login keeps its state and nonce there (LTI Client Side
   * postMessage) rather than only in the cookie; null otherwise.
   */
  s: string | null;
  /** Expiry (Unix seconds). */
  e: number;
}

const stateFields = (s: LoginState) => [s.p, s.n, s.i, s.h, s.m ?? '', s.t, s.d ?? '', s.s ?? ''];

/** The platforms' key sets, one per JWKS URL: jose caches the keys and fetches again for a kid it does not know. */
export class PlatformKeySets {
  private readonly sets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

  get(jwksUrl: string): ReturnType<typeof createRemoteJWKSet> {
    let set = this.sets.get(jwksUrl);
    if (!set) {
      // A new kid is looked up at most every 30 s (a flood of made-up kids costs the platform nothing).
      set = createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 5000, cooldownDuration: 30_000, cacheMaxAge: 600_000 });
      if (this.sets.size >= 1000) this.sets.clear();
      this.sets.set(jwksUrl, set);
    }
    return set;
  }
}

/**
 * What the login page keeps in the platform's storage (docs/lti.md "Client side postMessage storage"): under each key
 * its value, posted to `target` (`_parent` or a frame of the parent) for the platform's OIDC authorisation origin only.
 */
interface PlatformStorage {
  target: string;
  origin: string;
  stateKey: string;
  stateValue: string;
  nonceKey: string;
  nonce: string;
  /** The login again without the storage, opened in a new window where the browser keeps the tool's cookie. */
  retryUrl: string;
}

export type LoginOutcome =
  | { ok: true; redirect: string; cookie: { name: string; value: string; maxAge: number }; storage?: PlatformStorage }
  | (LaunchResult & { ok: false });

function encodeState(env: Env, state: LoginState): string {
  const signature = linkSigner(env.AUTH_SECRET, 'lti-state').sign(stateFields(state), state.e);
  return `${Buffer.from(JSON.stringify(state)).toString('base64url')}.${signature}`;
}

/** The keys the login's state and nonce are kept under in the platform's storage. */
const storageKeys = (state: LoginState) => ({ stateKey: `state_${state.i}`, nonceKey: `nonce_${state.n}` });

/**
 * A frame name the platform may give as `lti_storage_target`: `_parent`, or the name of a frame of the parent window
 * (a name is any text, but a platform's is short and plain; anything else is not used, and the cookie alone carries
 * the login).
 */
function storageTargetOf(value: string | undefined): string | null {
  return value && /^[A-Za-z0-9_.:-]{1,100}$/.test(value) ? value : null;
}

function decodeState(env: Env, value: string, nowMs: number): { state: LoginState; signature: string } | null {
  if (value.length > 8000) return null;
  const read = readSignedJson<LoginState>(value);
  if (!read) return null;
  const { signature, payload: state } = read;
  if (![state.p, state.n, state.i, state.h, state.t].every((v) => typeof v === 'string')) return null;
  if (![state.m, state.d, state.s].every((v) => v === null || typeof v === 'string')) return null;
  if (linkSigner(env.AUTH_SECRET, 'lti-state').check(stateFields(state), state.e, signature, nowMs) !== 'valid') return null;
  return { state, signature };
}

/** True when `uri` is the tool's launch URL (its query aside). */
function isToolLaunchUrl(env: Env, uri: string): boolean {
  try {
    const url = new URL(uri);
    return `${url.origin}${url.pathname}` === toolEndpoints(env).launchUrl;
  } catch {
    return false;
  }
}

/**
 * The login's first step (GET or POST from the platform): finds the platform by issuer (and client id when sent), and
 * sends the browser to the platform's authorisation endpoint with a fresh nonce and a signed state, the state's id kept
 * in a cookie of this browser.
 */
export async function startLogin(db: Kysely<DB>, env: Env, params: Record<string, string | undefined>, nowMs = Date.now()): Promise<LoginOutcome> {
  const { iss, login_hint: loginHint, target_link_uri: target, lti_message_hint: messageHint, client_id: clientId, lti_deployment_id: deploymentId } = params;
  const storageTarget = storageTargetOf(params.lti_storage_target);
  if (!iss || !loginHint || !target || !isToolLaunchUrl(env, target)) return fail('lti_login_invalid');
  const candidates = (await repo.findPlatformsByIssuer(db, iss)).filter((p) => !clientId || p.client_id === clientId);
  // Without a client id an issuer must name one registration only.
  const platform = candidates.length === 1 ? candidates[0] : undefined;
  if (!platform) return fail('lti_platform_unknown');
  if (deploymentId && !platform.deployment_ids.includes(deploymentId)) return fail('lti_deployment_unknown');

  const state: LoginState = {
    p: platform.id,
    n: randomBytes(16).toString('base64url'),
    i: randomBytes(12).toString('base64url'),
    h: loginHint,
    m: messageHint ?? null,
    t: target,
    d: deploymentId ?? null,
    s: storageTarget,
    e: Math.floor(nowMs / 1000) + STATE_SECONDS,
  };
  const encoded = encodeState(env, state);
  const redirect = new URL(platform.auth_endpoint);
  const query: Record<string, string> = {
    scope: 'openid',
    response_type: 'id_token',
    response_mode: 'form_post',
    prompt: 'none',
    client_id: platform.client_id,
    redirect_uri: toolEndpoints(env).launchUrl,
    login_hint: loginHint,
    state: encoded,
    nonce: state.n,
  };
  if (messageHint) query.lti_message_hint = messageHint;
  for (const [name, value] of Object.entries(query)) redirect.searchParams.set(name, value);
  const signature = encoded.split('.')[1] ?? '';
  const outcome: LoginOutcome = { ok: true, redirect: redirect.toString(), cookie: { name: `${STATE_COOKIE_PREFIX}${state.i}`, value: signature, maxAge: STATE_SECONDS } };
  if (!storageTarget) return outcome;
  // The state's signature is what the cookie would hold: kept in the platform's storage, it proves the same thing.
  const storage = { target: storageTarget, origin: redirect.origin, ...storageKeys(state), stateValue: signature, nonce: state.n };
  return { ...outcome, storage: { ...storage, retryUrl: loginAgainUrl(env, state, platform.issuer, platform.client_id) } };
}

/** The login URL with the same hints: opened in a new window, where the browser keeps the tool's cookie. */
function loginAgainUrl(env: Env, state: LoginState, issuer: string, clientId: string): string {
  const url = new URL(`${publicUrl(env)}${LTI13_LOGIN_PATH}`);
  url.searchParams.set('iss', issuer);
  url.searchParams.set('client_id', clientId);
  url.searchParams.set('login_hint', state.h);
  url.searchParams.set('target_link_uri', state.t);
  if (state.m) url.searchParams.set('lti_message_hint', state.m);
  if (state.d) url.searchParams.set('lti_deployment_id', state.d);
  return url.toString();
}

export type Lti13LaunchResult =
  | (LaunchResult & {
      ok: true;
      messageType: Lti13MessageType;
      claims: JWTPayload;
      platformId: string;
      deploymentId: string;
      /** A deep linking request's settings (the teacher chooses what the link opens, then the answer goes there). */
      deepLink?: DeepLinkRequest;
    })
  | (LaunchResult & { ok: false; returnUrl?: string; retryUrl?: string; readStorage?: undefined })
  /** The login kept its state in the platform's storage and no cookie came: the launch page reads it back first. */
  | { ok: false; readStorage: Omit<PlatformStorage, 'stateValue'> };

type Refusal = LaunchResult & { ok: false; returnUrl?: string; retryUrl?: string };

const refusal = (code: Parameters<typeof fail>[0], detail?: string, extra: Partial<Refusal> = {}): Refusal => {
  const base = fail(code, extra.signed ?? false);
  return { ...base, ...extra, message: detail ? `${base.message} (${detail})` : base.message };
};

/** Why jose refused a token, in words an administrator can check against the platform's settings. */
function tokenProblem(error: unknown): Refusal {
  if (error instanceof errors.JWTExpired) return refusal('lti_id_token_expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iat' || error.claim === 'nbf') return refusal('lti_id_token_expired');
    const names: Record<string, string> = { iss: 'it names another issuer', aud: 'it is meant for another client id' };
    return refusal('lti_id_token_invalid', names[error.claim] ?? `its ${error.claim} claim is missing or wrong`);
  }
  if (error instanceof errors.JWKSNoMatchingKey) return refusal('lti_id_token_invalid', 'it is signed with a key the platform does not publish');
  if (error instanceof errors.JWSSignatureVerificationFailed) return refusal('lti_id_token_invalid', 'its signature does not verify');
  if (error instanceof errors.JOSEAlgNotAllowed) return refusal('lti_id_token_invalid', 'its signing algorithm is not accepted');
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return refusal('lti_id_token_invalid', 'the platform’s keys could not be read');
  if (error instanceof errors.JOSEError) return refusal('lti_id_token_invalid', 'it is not a signed token');
  // The platform's JWKS URL did not answer at all (DNS, refused connection): the launch is refused, never a 5xx.
  if (error instanceof TypeError) return refusal('lti_id_token_invalid', 'the platform’s keys could not be read');
  throw error;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 1024) : undefined);

function claimObject(claims: JWTPayload, name: string): Record<string, unknown> {
  const value = claims[`${CLAIM}${name}`];
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The http(s) return URL of a verified launch (launch_presentation.return_url), where refusals go back. */
function returnUrlOf(claims: JWTPayload): string | undefined {
  const value = str(claimObject(claims, 'launch_presentation').return_url);
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

export interface Lti13LaunchInput {
  idToken: string | undefined;
  state: string | undefined;
  /** The request's cookies. */
  cookies: Record<string, string | undefined>;
  /**
   * What the tool's launch page read back from the platform's storage (under the login's keys), posted by that page
   * from the tool's own origin; undefined for the platform's own post.
   */
  stored?: { state: string | undefined; nonce: string | undefined };
  ip: string | null;
  userAgent: string | null;
  nowMs?: number;
}

/**
 * The launch (the platform's form post of `id_token` and `state`): the state is this tool's and this browser's, the
 * token is the registered platform's (signature by its JWKS, iss, aud / azp, exp and iat with 60 s leeway, the
 * login's nonce, used once), for a registered deployment, an LTI 1.3.0 resource link or deep linking request with
 * roles. Then the platform user's own account is found or created as for LTI 1.1.
 */
export async function completeLaunch(db: Kysely<DB>, env: Env, keySets: PlatformKeySets, input: Lti13LaunchInput): Promise<Lti13LaunchResult> {
  const nowMs = input.nowMs ?? Date.now();
  if (!input.idToken || !input.state) return refusal('lti_state_invalid');
  const decoded = decodeState(env, input.state, nowMs);
  if (!decoded) return refusal('lti_state_invalid');
  const { state, signature } = decoded;
  const platform = await repo.findPlatform(db, state.p);
  if (!platform) return refusal('lti_platform_unknown');
  const retryUrl = loginAgainUrl(env, state, platform.issuer, platform.client_id);
  if (input.stored) {
    // The values the platform's storage gave back must be this login's: its state's signature and its nonce. The
    // nonce is then claimed once, below, as for every launch.
    if (!state.s || input.stored.state !== signature || input.stored.nonce !== state.n) return refusal('lti_storage_mismatch', undefined, { retryUrl });
  } else if (input.cookies[`${STATE_COOKIE_PREFIX}${state.i}`] !== signature) {
    if (state.s) {
      const origin = new URL(platform.auth_endpoint).origin;
      return { ok: false, readStorage: { target: state.s, origin, ...storageKeys(state), nonce: state.n, retryUrl } };
    }
    return refusal('lti_state_lost', undefined, { retryUrl });
  }

  let claims: JWTPayload;
  let algorithm: string;
  try {
    const verified = await jwtVerify(input.idToken, keySets.get(platform.jwks_url), {
      issuer: platform.issuer,
      audience: platform.client_id,
      algorithms: ALGORITHMS,
      clockTolerance: LEEWAY_SECONDS,
      maxTokenAge: MAX_TOKEN_AGE_SECONDS,
      requiredClaims: ['exp', 'iat', 'nonce'],
      currentDate: new Date(nowMs),
    });
    claims = verified.payload;
    algorithm = verified.protectedHeader.alg;
  } catch (error) {
    return tokenProblem(error);
  }
  // Several audiences need azp naming this tool; an azp always must (OpenID Connect Core §3.1.3.7).
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if ((audiences.length > 1 && claims.azp === undefined) || (claims.azp !== undefined && claims.azp !== platform.client_id)) {
    return refusal('lti_id_token_invalid', 'its azp is not this tool’s client id');
  }
  if (claims.nonce !== state.n) return refusal('lti_id_token_invalid', 'its nonce is not this login’s');

  // Signed by the platform from here on: a refusal may go back to its return URL.
  const signed = { signed: true, returnUrl: returnUrlOf(claims) };
  if (!(await claimNonce(db, `${LTI13_USER_PREFIX}${platform.id}`, state.n))) return refusal('lti_id_token_replay', undefined, signed);
  const deploymentId = str(claims[`${CLAIM}deployment_id`]);
  if (!deploymentId) return refusal('lti_deployment_unknown', 'the launch names no deployment id', signed);
  if (!platform.deployment_ids.includes(deploymentId)) return refusal('lti_deployment_unknown', `deployment ${deploymentId}`, signed);
  const messageType = claims[`${CLAIM}message_type`];
  if (messageType !== 'LtiResourceLinkRequest' && messageType !== 'LtiDeepLinkingRequest') return refusal('lti_message_type_unsupported', undefined, signed);
  if (claims[`${CLAIM}version`] !== '1.3.0') return refusal('lti_version_unsupported', undefined, signed);
  const rolesClaim = claims[`${CLAIM}roles`];
  if (!Array.isArray(rolesClaim) || !rolesClaim.every((r) => typeof r === 'string')) return refusal('lti_roles_missing', undefined, signed);
  const roles = (rolesClaim as string[]).slice(0, 100);
  const resourceLinkId = str(claimObject(claims, 'resource_link').id);
  if (messageType === 'LtiResourceLinkRequest' && !resourceLinkId) return refusal('lti_resource_link_id', undefined, signed);
  const sub = str(claims.sub);
  if (!sub) return refusal('lti_no_user', undefined, signed);

  const kind = userKindFromRoles(roles.join(','));
  // A deep linking request that cannot be answered is refused before anyone is signed in (a page: the platform's
  // return URL is what is wrong, or the person may not choose).
  const deepLink = messageType === 'LtiDeepLinkingRequest' ? deepLinkRequestOf(env, claims, kind) : undefined;
  if (deepLink && !deepLink.ok) return deepLink;
  const parsedEmail = str(claims.email) ? emailSchema.safeParse(str(claims.email)) : undefined;
  const name =
    str(claims.name) ?? ([str(claims.given_name), str(claims.family_name)].filter(Boolean).join(' ') || (kind === 'teacher' ? 'Teacher' : 'Student'));
  const result = await provisionLaunchUser(db, env, {
    organisationId: platform.organisation_id,
    // The issuer, not the registration's id: removing and adding the platform again keeps its users' accounts.
    ltiUserId: `${LTI13_USER_PREFIX}${platform.issuer} ${sub}`,
    contactEmail: parsedEmail?.success ? parsedEmail.data : undefined,
    name,
    kind,
    roles: roles.join(','),
    consumerKey: platform.client_id,
    signatureMethod: algorithm,
    details: {
      resourceLinkId,
      contextId: str(claimObject(claims, 'context').id) ?? null,
      toolConsumerInstanceGuid: str(claimObject(claims, 'tool_platform').guid) ?? null,
    },
    launch: { ip: input.ip, userAgent: input.userAgent },
  });
  if (!result.ok) return { ...result, ...signed };
  return { ...result, messageType, claims, platformId: platform.id, deploymentId, ...(deepLink?.ok ? { deepLink: deepLink.request } : {}) };
}
