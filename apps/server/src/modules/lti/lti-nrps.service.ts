import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';
import type { Kysely } from 'kysely';
import { isValidEmail } from '@quire/core';
import type { DB } from '../../db/types.js';
import type { Env } from '../../env.js';
import { recordAudit } from '../access/audit.js';
import * as repo from './lti-advantage.repository.js';
import { isAcceptedPlatformUrl } from './lti-platforms.service.js';
import { userKindFromRoles } from './lti-roles.js';
import { currentSigningKey } from './lti-tool-keys.js';

/**
 * Names and Role Provisioning Services 2.0 (docs/lti.md "Names and roles"): after a teacher's launch from a course,
 * the course's roster is read from the platform (an OAuth 2 client-credentials grant with a JWT signed by the tool's
 * key, RFC 7523), and its teachers with an address are added to the organisation as pending members, as an import
 * adds them. Run as a job: the launch never waits for the platform.
 */

export const NRPS_QUEUE = 'lti-nrps-sync';
const NRPS_CLAIM = 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice';
const NRPS_SCOPE = 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly';
const MEMBERSHIP_TYPE = 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json';
const INSTRUCTOR = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor';
/** A course's roster is read at most this often (the job is sent with it as its singleton window). */
export const NRPS_SYNC_SECONDS = 3600;
/** Pages of a roster read at most, and teachers added at most per course. */
const MAX_PAGES = 20;
const MAX_TEACHERS = 500;
const FETCH_TIMEOUT_MS = 10_000;

export interface NrpsJobData {
  platformId: string;
  membershipsUrl: string;
  contextId: string | null;
}

export function nrpsQueueOptions(nodeEnv: string) {
  return {
    policy: 'standard' as const,
    expireInSeconds: 600,
    retryLimit: nodeEnv === 'test' ? 0 : 3,
    ...(nodeEnv === 'test' ? { retryDelay: 1, retryBackoff: false } : { retryDelay: 60, retryBackoff: true, retryDelayMax: 900 }),
  };
}

/** The roster to read after a verified teacher's launch: the claim's memberships URL, when it is a usable address. */
export function nrpsJobOf(env: Env, claims: JWTPayload, platformId: string, contextId: string | null): NrpsJobData | null {
  const claim = claims[NRPS_CLAIM];
  const url = claim && typeof claim === 'object' ? (claim as Record<string, unknown>).context_memberships_url : undefined;
  if (typeof url !== 'string' || url.length > 2000) return null;
  try {
    return isAcceptedPlatformUrl(env, url) ? { platformId, membershipsUrl: url, contextId } : null;
  } catch {
    return null;
  }
}

/** An access token for the roster: the client-credentials grant with the tool's signed assertion (LTI Security §4.1). */
async function accessToken(db: Kysely<DB>, env: Env, platform: { client_id: string; token_endpoint: string }): Promise<string> {
  const { kid, key } = await currentSigningKey(db, env);
  const assertion = await new SignJWT({})
    .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
    .setIssuer(platform.client_id)
    .setSubject(platform.client_id)
    .setAudience(platform.token_endpoint)
    .setIssuedAt()
    .setExpirationTime('5m')
    .setJti(randomBytes(16).toString('base64url'))
    .sign(key);
  const response = await fetch(platform.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
      scope: NRPS_SCOPE,
    }).toString(),
    redirect: 'error',
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
  });
  const body = (await response.json().catch(() => null)) as { access_token?: unknown } | null;
  if (!response.ok || typeof body?.access_token !== 'string') throw new Error(`the platform's token endpoint refused the grant (${response.status})`);
  return body.access_token;
}

/** The next page of a roster (`Link: <…>; rel="next"`), on the same origin as the first. */
function nextPage(link: string | null, origin: string): string | null {
  const next = link?.split(',').find((part) => /;\s*rel="?next"?/.test(part));
  const url = next ? /<([^>]+)>/.exec(next)?.[1] : undefined;
  if (!url) return null;
  try {
    return new URL(url).origin === origin ? url : null;
  } catch {
    return null;
  }
}

interface Member {
  email?: unknown;
  roles?: unknown;
  status?: unknown;
}

/**
 * Reads the course's roster and adds its active teachers with a valid address as pending members of the platform's
 * organisation (an address already there is left as it is). Returns how many were added. Throws when the platform
 * does not answer as it should (the job is retried).
 */
export async function syncCourseTeachers(db: Kysely<DB>, env: Env, job: NrpsJobData): Promise<number> {
  const platform = await repo.findPlatform(db, job.platformId);
  // A domain organisation takes no import (its domain's people are members already): the same line here.
  if (!platform || (await repo.isDomainOrganisation(db, platform.organisation_id))) return 0;
  const token = await accessToken(db, env, platform);
  const first = new URL(job.membershipsUrl);
  first.searchParams.set('role', INSTRUCTOR);
  const emails = new Set<string>();
  let url: string | null = first.toString();
  for (let page = 0; url && page < MAX_PAGES && emails.size < MAX_TEACHERS; page += 1) {
    const response: Response = await fetch(url, {
      headers: { authorization: `Bearer ${token}`, accept: MEMBERSHIP_TYPE },
      redirect: 'error',
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`the platform's roster answered ${response.status}`);
    const body = (await response.json()) as { members?: unknown };
    for (const member of Array.isArray(body.members) ? (body.members as Member[]) : []) {
      const roles = Array.isArray(member.roles) ? member.roles.filter((r): r is string => typeof r === 'string') : [];
      const active = member.status === undefined || member.status === 'Active';
      const email = typeof member.email === 'string' ? member.email.trim().toLowerCase() : '';
      // The platform's own roles decide, as for a launch; an address is needed to invite someone to sign up.
      if (active && userKindFromRoles(roles.join(',')) === 'teacher' && isValidEmail(email) && emails.size < MAX_TEACHERS) emails.add(email);
    }
    url = nextPage(response.headers.get('link'), first.origin);
  }
  if (emails.size === 0) return 0;
  return db.transaction().execute(async (trx) => {
    const added = await repo.insertPendingTeachers(trx, platform.organisation_id, [...emails].map((email) => ({ id: randomUUID(), email })));
    if (added.length > 0) {
      await recordAudit(
        trx,
        { kind: 'lti_platform', id: platform.client_id, name: platform.name },
        {
          organisationId: platform.organisation_id,
          action: 'lti.teachers_provisioned',
          targetType: 'member',
          targetIds: added.map((m) => m.id),
          details: { platform: platform.issuer, clientId: platform.client_id, contextId: job.contextId, count: added.length },
        },
      );
    }
    return added.length;
  });
}
