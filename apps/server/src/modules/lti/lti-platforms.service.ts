import type { Kysely } from 'kysely';
import { LTI13_JWKS_PATH, LTI13_LAUNCH_PATH, LTI13_LOGIN_PATH, type LtiAdvantage, type LtiPlatform, type LtiPlatformInput } from '@quire/core';
import type { DB } from '../../db/types.js';
import { publicUrl, type Env } from '../../env.js';
import { appError } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import { recordAudit } from '../access/audit.js';
import { requireOrgAccess } from '../access/org-access.js';
import * as repo from './lti-advantage.repository.js';

/** The tool's LTI 1.3 values an admin pastes into the platform: all at PUBLIC_URL. */
export function toolEndpoints(env: Env): Pick<LtiAdvantage, 'loginUrl' | 'launchUrl' | 'jwksUrl' | 'domain'> {
  const origin = publicUrl(env);
  return { loginUrl: `${origin}${LTI13_LOGIN_PATH}`, launchUrl: `${origin}${LTI13_LAUNCH_PATH}`, jwksUrl: `${origin}${LTI13_JWKS_PATH}`, domain: new URL(origin).host };
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Platform addresses are https; outside production an http address of this computer (localhost, 127.0.0.1, ::1) is
 * accepted too, so a platform simulator on the same machine can drive the flow (and a deep linking return URL alike).
 */
export function isAcceptedPlatformUrl(env: Pick<Env, 'NODE_ENV'>, value: string): boolean {
  const url = new URL(value);
  if (url.protocol === 'https:') return true;
  return env.NODE_ENV !== 'production' && url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

function present(row: Awaited<ReturnType<typeof repo.listPlatforms>>[number]): LtiPlatform {
  return {
    id: row.id,
    name: row.name,
    issuer: row.issuer,
    clientId: row.client_id,
    deploymentIds: row.deployment_ids,
    authEndpoint: row.auth_endpoint,
    tokenEndpoint: row.token_endpoint,
    jwksUrl: row.jwks_url,
  };
}

function toRow(env: Env, input: LtiPlatformInput): repo.PlatformRow {
  for (const url of [input.issuer, input.authEndpoint, input.tokenEndpoint, input.jwksUrl]) {
    if (!isAcceptedPlatformUrl(env, url)) throw appError('lti_platform_url_insecure');
  }
  return {
    name: input.name,
    // The issuer is compared with `iss` exactly; a trailing slash typed by hand is not the platform's.
    issuer: input.issuer,
    client_id: input.clientId,
    deployment_ids: [...new Set(input.deploymentIds)],
    auth_endpoint: input.authEndpoint,
    token_endpoint: input.tokenEndpoint,
    jwks_url: input.jwksUrl,
  };
}

async function requireAdmin(db: Kysely<DB>, actor: Actor, organisationId: string): Promise<void> {
  await requireOrgAccess(db, actor, organisationId, 'admin', { missing: 'not-found' });
}

export async function readAdvantage(db: Kysely<DB>, env: Env, actor: Actor, organisationId: string): Promise<LtiAdvantage> {
  await requireAdmin(db, actor, organisationId);
  return { ...toolEndpoints(env), platforms: (await repo.listPlatforms(db, organisationId)).map(present) };
}

/** The platform as the audit log names it: its name, with its issuer and client id (no secret: a platform has none here). */
const auditTarget = (platform: LtiPlatform) => ({ type: 'lti_platform', id: platform.id, label: `${platform.name} (${platform.issuer}, ${platform.clientId})` });
/** What an admin sets of a platform, for old → new in the audit log. */
const auditValue = ({ id: _id, ...values }: LtiPlatform) => values;

/** Registers a platform; 409 when its issuer and client id are registered already (here or elsewhere). Recorded in the audit log. */
export async function createPlatform(db: Kysely<DB>, env: Env, actor: Actor, organisationId: string, input: LtiPlatformInput): Promise<LtiPlatform> {
  await requireAdmin(db, actor, organisationId);
  const row = toRow(env, input);
  return db.transaction().execute(async (trx) => {
    const inserted = await repo.insertPlatform(trx, organisationId, row);
    if (!inserted) throw appError('lti_platform_exists');
    const platform = present(inserted);
    await recordAudit(trx, actor, { organisationId, action: 'lti.platform.add', targets: [auditTarget(platform)], newValue: auditValue(platform) });
    return platform;
  });
}

/**
 * Changes a platform; 409 when another registration has its new issuer and client id (even one made a moment ago).
 * Recorded with the values before and after.
 */
export async function updatePlatform(db: Kysely<DB>, env: Env, actor: Actor, organisationId: string, id: string, input: LtiPlatformInput): Promise<LtiPlatform> {
  await requireAdmin(db, actor, organisationId);
  const row = toRow(env, input);
  return db.transaction().execute(async (trx) => {
    const before = (await repo.listPlatforms(trx, organisationId)).find((p) => p.id === id);
    const updated = await repo.updatePlatform(trx, organisationId, id, row);
    if (updated === 'taken') throw appError('lti_platform_exists');
    if (updated === 'not-found' || !before) throw appError('lti_platform_not_found');
    const platform = present(updated);
    await recordAudit(trx, actor, { organisationId, action: 'lti.platform.update', targets: [auditTarget(platform)], oldValue: auditValue(present(before)), newValue: auditValue(platform) });
    return platform;
  });
}

/**
 * Removes a platform: its launches are refused from the next one on. Idempotent for a platform already gone (only a
 * removal that found it is recorded).
 */
export async function deletePlatform(db: Kysely<DB>, actor: Actor, organisationId: string, id: string): Promise<void> {
  await requireAdmin(db, actor, organisationId);
  await db.transaction().execute(async (trx) => {
    const before = (await repo.listPlatforms(trx, organisationId)).find((p) => p.id === id);
    if (!before || !(await repo.deletePlatform(trx, organisationId, id))) return;
    const platform = present(before);
    await recordAudit(trx, actor, { organisationId, action: 'lti.platform.remove', targets: [auditTarget(platform)], oldValue: auditValue(platform) });
  });
}
