import { randomBytes } from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';
import type { Kysely } from 'kysely';
import { ltiDeepLinkChoiceSchema, ltiTargetValue, type LtiDeepLinkChoice } from '@quire/core';
import type { DB } from '../../db/types.js';
import type { Env } from '../../env.js';
import { linkSigner } from '../access/signed-links.js';
import * as repo from './lti-advantage.repository.js';
import { fail, type LaunchResult } from './lti-launch.service.js';
import { isAcceptedPlatformUrl, toolEndpoints } from './lti-platforms.service.js';
import { currentSigningKey } from './lti-tool-keys.js';
import { readSignedJson } from './lti-signed-json.js';

/**
 * Deep Linking 2.0 (docs/lti.md "Deep Linking 2.0"): a teacher adding the tool in a course chooses what the link opens
 * (the product's home page or a book), and the tool answers the platform with a signed LtiDeepLinkingResponse. The
 * request is verified as a launch is (lti-advantage.service.ts); between the picker and the answer nothing is stored:
 * the picker's page carries a signed context of what the answer needs.
 */

const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/';
const DL_CLAIM = 'https://purl.imsglobal.org/spec/lti-dl/claim/';
/** How long a teacher may take on the picker (time to look a book's id up). */
const CONTEXT_SECONDS = 1800;
/** How long the signed answer lives: the browser posts it to the platform at once. */
const RESPONSE_SECONDS = 300;

/** What the answer to a verified deep linking request needs, kept in the picker's signed context. */
export interface DeepLinkRequest {
  /** The platform's `deep_link_return_url`, where the answer is posted. */
  returnUrl: string;
  /** The platform's `data`, echoed in the answer; null when it sent none. */
  data: string | null;
}

type Refusal = LaunchResult & { ok: false };

function settingsOf(claims: JWTPayload): Record<string, unknown> {
  const value = claims[`${DL_CLAIM}deep_linking_settings`];
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * The settings of a verified LtiDeepLinkingRequest from a teacher: a return URL (https; on this computer also http
 * outside production), a platform that accepts an LTI resource link, `data` to echo. A refusal otherwise: the tool
 * cannot answer a request without a usable return URL, and only a teacher may choose what a course's link opens.
 */
export function deepLinkRequestOf(env: Env, claims: JWTPayload, kind: 'teacher' | 'student'): { ok: true; request: DeepLinkRequest } | Refusal {
  if (kind !== 'teacher') return fail('lti_deep_link_student', true);
  const settings = settingsOf(claims);
  const returnUrl = typeof settings.deep_link_return_url === 'string' ? settings.deep_link_return_url.trim() : '';
  let parsed: URL;
  try {
    parsed = new URL(returnUrl);
  } catch {
    return fail('lti_deep_link_return_missing', true);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return fail('lti_deep_link_return_missing', true);
  if (!isAcceptedPlatformUrl(env, parsed.toString())) return fail('lti_deep_link_return_insecure', true);
  const acceptTypes = settings.accept_types;
  if (Array.isArray(acceptTypes) && !acceptTypes.includes('ltiResourceLink')) return fail('lti_deep_link_types', true);
  // Echoed as sent (Canvas sends a JWT of its own); the request's body limit bounds it.
  const data = typeof settings.data === 'string' ? settings.data : null;
  return { ok: true, request: { returnUrl: parsed.toString(), data } };
}

/** The picker's context: signed, so neither the return URL nor the teacher can be changed on the way back. */
interface DeepLinkContext {
  /** The platform (lti_platforms.id). */
  p: string;
  /** The deployment the request came from. */
  d: string;
  /** The teacher's account and organisation. */
  u: string;
  o: string;
  r: string;
  a: string | null;
  /** Expiry (Unix seconds). */
  e: number;
}

export function encodeDeepLinkContext(
  env: Env,
  input: { platformId: string; deploymentId: string; userId: string; organisationId: string; request: DeepLinkRequest },
  nowMs = Date.now(),
): string {
  const context: DeepLinkContext = {
    p: input.platformId,
    d: input.deploymentId,
    u: input.userId,
    o: input.organisationId,
    r: input.request.returnUrl,
    a: input.request.data,
    e: Math.floor(nowMs / 1000) + CONTEXT_SECONDS,
  };
  const body = Buffer.from(JSON.stringify(context)).toString('base64url');
  return `${body}.${linkSigner(env.AUTH_SECRET, 'lti-deep-link').sign([body], context.e)}`;
}

function decodeDeepLinkContext(env: Env, value: string, nowMs: number): DeepLinkContext | null {
  const read = readSignedJson<DeepLinkContext>(value);
  if (!read) return null;
  const { body, signature, payload: context } = read;
  if (![context.p, context.d, context.u, context.o, context.r].every((v) => typeof v === 'string')) return null;
  if (linkSigner(env.AUTH_SECRET, 'lti-deep-link').check([body], context.e, signature, nowMs) !== 'valid') return null;
  return context;
}

export type DeepLinkAnswer =
  | { ok: true; returnUrl: string; jwt: string }
  /** The choice is not one the picker offers (a malformed book id): the picker again, with what was chosen. */
  | { ok: false; retry: true; message: string }
  | (Refusal & { retry: false });

/**
 * The teacher's choice on the picker, answered with the LtiDeepLinkingResponse the browser posts to the platform:
 * signed with the tool's current key (its kid in the header, the key published at the JWKS URL), from the client id
 * to the platform's issuer, with a fresh nonce, the deployment, one ltiResourceLink to the tool's launch URL whose
 * custom parameter `target` names the choice, and the request's `data` echoed. Nothing is written: a second post of
 * the same choice signs the same link again.
 */
export async function answerDeepLink(
  db: Kysely<DB>,
  env: Env,
  input: { context: string | undefined; choice: Record<string, string | undefined>; nowMs?: number },
): Promise<DeepLinkAnswer> {
  const nowMs = input.nowMs ?? Date.now();
  const context = input.context ? decodeDeepLinkContext(env, input.context, nowMs) : null;
  if (!context) return { ...fail('lti_deep_link_expired'), retry: false };
  const platform = await repo.findPlatform(db, context.p);
  if (!platform) return { ...fail('lti_platform_unknown'), retry: false };
  if (!platform.deployment_ids.includes(context.d)) return { ...fail('lti_deployment_unknown'), retry: false };
  const parsed = ltiDeepLinkChoiceSchema.safeParse(input.choice);
  if (!parsed.success) return { ok: false, retry: true, message: fail('lti_deep_link_book_id').message };

  const { kid, key } = await currentSigningKey(db, env);
  const now = Math.floor(nowMs / 1000);
  const item = {
    type: 'ltiResourceLink',
    title: await titleOf(db, env, context.o, parsed.data),
    url: toolEndpoints(env).launchUrl,
    custom: { target: ltiTargetValue(parsed.data) },
  };
  const claims: JWTPayload = {
    nonce: randomBytes(16).toString('base64url'),
    [`${CLAIM}deployment_id`]: context.d,
    [`${CLAIM}message_type`]: 'LtiDeepLinkingResponse',
    [`${CLAIM}version`]: '1.3.0',
    [`${DL_CLAIM}content_items`]: [item],
  };
  if (context.a !== null) claims[`${DL_CLAIM}data`] = context.a;
  const jwt = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
    .setIssuer(platform.client_id)
    .setAudience(platform.issuer)
    .setIssuedAt(now)
    .setExpirationTime(now + RESPONSE_SECONDS)
    .sign(key);
  return { ok: true, returnUrl: context.r, jwt };
}

/** The link's title in the course: the product's name, or the book's title when the organisation has that book. */
async function titleOf(db: Kysely<DB>, env: Env, organisationId: string, choice: LtiDeepLinkChoice): Promise<string> {
  if (choice.target === 'home') return env.PRODUCT_NAME;
  const title = await repo.findBookTitle(db, organisationId, choice.bookId);
  return title ?? `A book in ${env.PRODUCT_NAME} (${choice.bookId})`;
}
