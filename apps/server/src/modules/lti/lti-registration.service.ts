import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  LTI13_REGISTER_PATH,
  ltiPlatformConfigurationSchema,
  ltiToolRegistrationResponseSchema,
  type LtiPlatform,
  type LtiPlatformConfiguration,
  type LtiRegistrationLink,
} from '@quire/core';
import type { DB } from '../../db/types.js';
import { publicUrl, type Env } from '../../env.js';
import { AppError } from '../../errors.js';
import type { Actor, ClientInfo } from '../access/actor.js';
import { requireOrgAccess } from '../access/org-access.js';
import { linkSigner } from '../access/signed-links.js';
import * as repo from './lti-advantage.repository.js';
import { claimNonce, releaseNonce } from './lti-launch.repository.js';
import { fail, type LaunchResult } from './lti-launch.service.js';
import { createPlatform, isAcceptedPlatformUrl, toolEndpoints } from './lti-platforms.service.js';
import { readSignedJson } from './lti-signed-json.js';

/**
 * LTI Dynamic Registration 1.0 (docs/lti.md "Dynamic registration"): an admin asks for a registration address on the
 * LMS Integration page and pastes it into the learning platform; the platform opens it with its OpenID configuration's
 * URL (and a registration token); the tool reads the configuration, the admin confirms, the tool registers itself at
 * the platform's registration endpoint, and the client id and deployment id it gets back are stored as a learning
 * platform of the admin's organisation, as one typed in would be.
 */

/** How long a registration address works: the admin pastes it into the platform at once. */
const REGISTRATION_SECONDS = 600;
/** A platform's answers are small JSON documents; anything past this is not one. */
const MAX_ANSWER_BYTES = 256 * 1024;
const FETCH_TIMEOUT_MS = 10_000;
const PLATFORM_CONFIGURATION = 'https://purl.imsglobal.org/spec/lti-platform-configuration';
const TOOL_CONFIGURATION = 'https://purl.imsglobal.org/spec/lti-tool-configuration';

/** What a registration address carries, signed: the organisation, the admin, the address's own id, expiry. */
interface RegistrationToken {
  o: string;
  u: string;
  i: string;
  e: number;
}

const tokenFields = (t: RegistrationToken) => [t.o, t.u, t.i];
const signer = (env: Env) => linkSigner(env.AUTH_SECRET, 'lti-registration');
/** The single-use record of an address's id (lti_nonces, which keeps it longer than the address lives). */
const usedKey = (t: RegistrationToken) => `lti-registration:${t.o}`;

export type RegistrationRefusal = LaunchResult & { ok: false };

/** A registration address for the admin's organisation (admins only): single use, for 10 minutes. */
export async function createRegistrationLink(db: Kysely<DB>, env: Env, actor: Actor, organisationId: string, nowMs = Date.now()): Promise<LtiRegistrationLink> {
  await requireOrgAccess(db, actor, organisationId, 'admin', { missing: 'not-found' });
  const token: RegistrationToken = { o: organisationId, u: actor.userId, i: randomBytes(16).toString('base64url'), e: Math.floor(nowMs / 1000) + REGISTRATION_SECONDS };
  const signature = signer(env).sign(tokenFields(token), token.e);
  const url = new URL(`${publicUrl(env)}${LTI13_REGISTER_PATH}`);
  url.searchParams.set('t', `${Buffer.from(JSON.stringify(token)).toString('base64url')}.${signature}`);
  return { url: url.toString(), expiresAt: new Date(token.e * 1000).toISOString() };
}

function decodeToken(env: Env, value: string | undefined, nowMs: number): RegistrationToken | null {
  if (!value || value.length > 2000) return null;
  const read = readSignedJson<RegistrationToken>(value);
  if (!read) return null;
  const { signature, payload: token } = read;
  if (![token.o, token.u, token.i].every((v) => typeof v === 'string')) return null;
  return signer(env).check(tokenFields(token), token.e, signature, nowMs) === 'valid' ? token : null;
}

/** GETs or POSTs JSON at a platform's address: no redirects, a time limit and a size limit; null when it fails. */
async function exchangeJson(url: string, init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string }): Promise<{ status: number; json: unknown } | null> {
  try {
    const response = await fetch(url, { ...init, headers: { accept: 'application/json', ...init.headers }, redirect: 'error', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    const text = await response.text();
    if (text.length > MAX_ANSWER_BYTES) return { status: response.status, json: null };
    try {
      return { status: response.status, json: JSON.parse(text) as unknown };
    } catch {
      return { status: response.status, json: null };
    }
  } catch {
    return null;
  }
}

/**
 * The platform's OpenID configuration, read from `configurationUrl` and checked as the specification asks: the
 * address and every endpoint are https (outside production, http on this computer's own addresses too), and its
 * `issuer` is on the address's own origin (so a configuration cannot name another platform's issuer).
 */
async function readConfiguration(env: Env, configurationUrl: string | undefined): Promise<{ ok: true; config: LtiPlatformConfiguration } | RegistrationRefusal> {
  const accepted = (value: string) => {
    try {
      return isAcceptedPlatformUrl(env, value);
    } catch {
      return false;
    }
  };
  if (!configurationUrl || configurationUrl.length > 2000 || !accepted(configurationUrl)) return fail('lti_registration_config');
  const answer = await exchangeJson(configurationUrl, { method: 'GET' });
  const parsed = answer && answer.status === 200 ? ltiPlatformConfigurationSchema.safeParse(answer.json) : null;
  if (!parsed?.success) return fail('lti_registration_config');
  const config = parsed.data;
  const endpoints = [config.issuer, config.authorization_endpoint, config.token_endpoint, config.jwks_uri, config.registration_endpoint];
  if (!endpoints.every(accepted)) return fail('lti_registration_config');
  if (new URL(config.issuer).origin !== new URL(configurationUrl).origin) return fail('lti_registration_config');
  return { ok: true, config };
}

/** How the platform is named on the LMS Integration page: its product ("Moodle") and host. */
function platformName(config: LtiPlatformConfiguration): string {
  const family = config[PLATFORM_CONFIGURATION]?.product_family_code?.trim();
  const product = family ? family.charAt(0).toUpperCase() + family.slice(1) : 'Learning platform';
  return `${product} (${new URL(config.issuer).host})`.slice(0, 120);
}

export interface RegistrationParams {
  token: string | undefined;
  openidConfiguration: string | undefined;
  registrationToken: string | undefined;
}

/** The registration page's first look (GET): the address is valid, and the platform's configuration is readable. */
export async function prepareRegistration(env: Env, params: RegistrationParams, nowMs = Date.now()): Promise<{ ok: true; name: string; issuer: string } | RegistrationRefusal> {
  if (!decodeToken(env, params.token, nowMs)) return fail('lti_registration_expired');
  const read = await readConfiguration(env, params.openidConfiguration);
  if (!read.ok) return read;
  return { ok: true, name: platformName(read.config), issuer: read.config.issuer };
}

/** The tool's client registration (Dynamic Registration §3.5.2): how the platform launches it, and what it sends. */
function toolRegistration(env: Env, productName: string) {
  const { loginUrl, launchUrl, jwksUrl, domain } = toolEndpoints(env);
  return {
    application_type: 'web',
    response_types: ['id_token'],
    grant_types: ['implicit', 'client_credentials'],
    initiate_login_uri: loginUrl,
    redirect_uris: [launchUrl],
    client_name: productName,
    jwks_uri: jwksUrl,
    token_endpoint_auth_method: 'private_key_jwt',
    // Names and roles: a teacher's launch reads the course's roster (lti-nrps.service.ts).
    scope: 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
    [TOOL_CONFIGURATION]: {
      domain,
      target_link_uri: launchUrl,
      description: `Create and read books with ${productName}. Teachers and students who open it from a course need no account or sign-in.`,
      claims: ['iss', 'sub', 'name', 'given_name', 'family_name', 'email'],
      messages: [
        { type: 'LtiResourceLinkRequest', target_link_uri: launchUrl, label: productName },
        { type: 'LtiDeepLinkingRequest', target_link_uri: launchUrl, label: `Add ${productName}` },
      ],
    },
  };
}

/** The admin the address names, as the actor of the registration: still the organisation's admin, or refused. */
async function addressActor(db: Kysely<DB>, token: RegistrationToken, client: ClientInfo): Promise<Actor | RegistrationRefusal> {
  const user = await repo.findUserForRegistration(db, token.u);
  if (!user) return fail('lti_registration_expired');
  const actor: Actor = { userId: user.id, email: user.email, displayName: user.name, emailVerified: user.emailVerified, client };
  try {
    await requireOrgAccess(db, actor, token.o, 'admin', { missing: 'not-found' });
  } catch (error) {
    if (error instanceof AppError) return fail('lti_registration_expired');
    throw error;
  }
  return actor;
}

/**
 * The registration itself (the admin's confirmation, POST): the address is used once; the configuration is read
 * again (nothing of the page is trusted); the tool registers at the platform's registration endpoint with the
 * platform's registration token; the client id and deployment id are stored as a platform of the organisation
 * (createPlatform: its checks, its transaction, `lti.platform.add` in the audit trail). A refusal before the platform
 * answered gives the address back, so the admin can try again while it lasts.
 */
export function completeRegistration(
  db: Kysely<DB>,
  env: Env,
  params: RegistrationParams & { productName: string; client: ClientInfo },
  nowMs = Date.now(),
): Promise<RegistrationResult> {
  const token = decodeToken(env, params.token, nowMs);
  if (!token) return Promise.resolve(fail('lti_registration_expired'));
  // A double click on the page's Register sends the confirmation twice, and the frame shows the answer to the second:
  // that one waits for the first and gives its answer, rather than meeting the address it has just used.
  const key = usedKey(token) + ':' + token.i;
  const running = confirmationsInFlight.get(key);
  if (running) return running;
  const work = register(db, env, params, token).finally(() => confirmationsInFlight.delete(key));
  confirmationsInFlight.set(key, work);
  return work;
}

type RegistrationResult = { ok: true; platform: LtiPlatform } | RegistrationRefusal;

/** The confirmations this server is working on, by address. */
const confirmationsInFlight = new Map<string, Promise<RegistrationResult>>();

async function register(
  db: Kysely<DB>,
  env: Env,
  params: RegistrationParams & { productName: string; client: ClientInfo },
  token: RegistrationToken,
): Promise<RegistrationResult> {
  if (!(await claimNonce(db, usedKey(token), token.i))) return fail('lti_registration_expired');
  const release = async (refusal: RegistrationRefusal) => {
    await releaseNonce(db, usedKey(token), token.i);
    return refusal;
  };
  const actor = await addressActor(db, token, params.client);
  if ('ok' in actor) return release(actor);
  const read = await readConfiguration(env, params.openidConfiguration);
  if (!read.ok) return release(read);
  const { config } = read;

  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (params.registrationToken) headers.authorization = `Bearer ${params.registrationToken}`;
  const answer = await exchangeJson(config.registration_endpoint, { method: 'POST', headers, body: JSON.stringify(toolRegistration(env, params.productName)) });
  const registered = answer && answer.status >= 200 && answer.status < 300 ? ltiToolRegistrationResponseSchema.safeParse(answer.json) : null;
  if (!registered?.success) return release(fail('lti_registration_refused'));
  const deploymentId = registered.data[TOOL_CONFIGURATION]?.deployment_id;
  // A platform that makes the deployment later (on installing the tool in a course) sends none: the admin adds it by
  // hand then; without one no launch could be accepted, so the registration is refused with that said.
  if (!deploymentId) {
    const refused = fail('lti_registration_refused');
    return { ...refused, message: `${refused.message} It sent no deployment id: add the platform by hand on the LMS Integration page.` };
  }
  try {
    const platform = await createPlatform(db, env, actor, token.o, {
      name: platformName(config),
      issuer: config.issuer,
      clientId: registered.data.client_id,
      deploymentIds: [deploymentId],
      authEndpoint: config.authorization_endpoint,
      tokenEndpoint: config.token_endpoint,
      jwksUrl: config.jwks_uri,
    });
    return { ok: true, platform };
  } catch (error) {
    if (error instanceof AppError && error.code === 'lti_platform_exists') {
      const refused = fail('lti_registration_refused');
      return { ...refused, message: `${refused.message} ${error.message}` };
    }
    throw error;
  }
}
