import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { SCIM_BASE_PATH, SCIM_MAX_TOKENS, SCIM_REQUEST_LOG_SIZE, type GeneratedScimToken, type ScimRequests, type ScimSetup, type ScimToken } from '@quire/core';
import type { DB } from '../../db/types.js';
import { publicUrl, type Env } from '../../env.js';
import { appError } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import { recordAudit } from '../access/audit.js';
import { requireOrgAccess } from '../access/org-access.js';
import * as repo from './scim-tokens.repository.js';

/** What a token starts with: tells a reader (and a secret scanner) what it is. */
const TOKEN_PREFIX = 'quire_scim_';

/** The SHA-256 of a token: what is stored and looked up. */
export function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** The SCIM endpoint's base URL to give a provider: one URL for every organisation, the token names which. */
export function scimBaseUrl(env: Env): string {
  return `${publicUrl(env)}${SCIM_BASE_PATH}`;
}

/** The groups that make admins and library managers, by name: server configuration, the same for every organisation. */
export function scimGroupNames(env: Env): ScimSetup['groups'] {
  return {
    admins: env.SCIM_ADMINS_GROUP ?? `${env.PRODUCT_NAME} Admins`,
    libraryManagers: env.SCIM_LIBRARY_MANAGERS_GROUP ?? `${env.PRODUCT_NAME} Library Managers`,
  };
}

function presentToken(row: repo.ScimTokenRow): ScimToken {
  return {
    id: row.id,
    hint: row.hint,
    createdAt: new Date(row.created_at).toISOString(),
    createdBy: row.created_by_email,
    lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
  };
}

/** Tokens are an admin's business: a library manager gets 403 like on LMS Integration. */
async function requireAdmin(db: Kysely<DB>, actor: Actor, organisationId: string): Promise<void> {
  await requireOrgAccess(db, actor, organisationId, 'admin', { missing: 'not-found' });
}

/** The Provisioning (SCIM) section: the base URL, the live tokens and the names of the groups that grant roles. */
export async function readScimSetup(db: Kysely<DB>, env: Env, actor: Actor, organisationId: string): Promise<ScimSetup> {
  await requireAdmin(db, actor, organisationId);
  const rows = await repo.listLiveTokens(db, organisationId);
  return { baseUrl: scimBaseUrl(env), tokens: rows.map(presentToken), groups: scimGroupNames(env) };
}

/** A new token: 256 random bits, answered once; only its hash is stored. At most SCIM_MAX_TOKENS live at once. */
export async function generateScimToken(db: Kysely<DB>, actor: Actor, organisationId: string): Promise<GeneratedScimToken> {
  await requireAdmin(db, actor, organisationId);
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const row = await db.transaction().execute(async (trx) => {
    await repo.lockOrganisation(trx, organisationId);
    if ((await repo.countLiveTokens(trx, organisationId)) >= SCIM_MAX_TOKENS) throw appError('scim_too_many_tokens');
    const inserted = await repo.insertToken(trx, { id: randomUUID(), organisationId, hash: tokenHash(token), hint: token.slice(-4), createdBy: actor.email });
    // The token is never written to the audit trail or the log.
    await recordAudit(trx, actor, { organisationId, action: 'scim.token.generated', targetType: 'scim_token', targetIds: [inserted.id] });
    return inserted;
  });
  return { ...presentToken(row), token };
}

/** Revokes a token: the next request made with it is refused. 404 for a token of another organisation or already revoked. */
export async function revokeScimToken(db: Kysely<DB>, env: Env, actor: Actor, organisationId: string, tokenId: string): Promise<ScimSetup> {
  await requireAdmin(db, actor, organisationId);
  await db.transaction().execute(async (trx) => {
    const revoked = await repo.revokeToken(trx, organisationId, tokenId);
    if (!revoked) throw appError('scim_token_not_found');
    await recordAudit(trx, actor, { organisationId, action: 'scim.token.revoked', targetType: 'scim_token', targetIds: [revoked] });
  });
  return readScimSetup(db, env, actor, organisationId);
}

/** The organisation's latest SCIM requests, newest first. */
export async function readScimRequests(db: Kysely<DB>, actor: Actor, organisationId: string): Promise<ScimRequests> {
  await requireAdmin(db, actor, organisationId);
  const rows = await repo.listRequests(db, organisationId, SCIM_REQUEST_LOG_SIZE);
  return {
    requests: rows.map((r) => ({
      at: new Date(r.at).toISOString(), method: r.method, operation: r.operation, user: r.subject, status: r.status, outcome: r.outcome,
    })),
  };
}
