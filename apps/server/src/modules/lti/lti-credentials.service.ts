import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { LTI_CARTRIDGE_PATH, LTI_LAUNCH_PATH, type LtiCredentials } from '@quire/core';
import type { DB } from '../../db/types.js';
import { publicUrl, type Env } from '../../env.js';
import { appError } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import { recordAudit } from '../access/audit.js';
import { requireOrgAccess } from '../access/org-access.js';
import { vaultFor } from './lti-crypto.js';
import * as repo from './lti-credentials.repository.js';
import { countLinkedUsers } from './lti-launch.repository.js';

/** Where a platform posts launches and finds the cartridge: the server's public origin (PUBLIC_URL). */
export function launchEndpoints(env: Env): Pick<LtiCredentials, 'launchUrl' | 'domain' | 'cartridgeUrl'> {
  const origin = publicUrl(env);
  return { launchUrl: `${origin}${LTI_LAUNCH_PATH}`, domain: new URL(origin).host, cartridgeUrl: `${origin}${LTI_CARTRIDGE_PATH}` };
}

/** A new consumer key: 128 random bits, hex (CSPRNG). */
function newConsumerKey(): string {
  return randomBytes(16).toString('hex');
}

/** A new consumer secret: 256 random bits, base64url (CSPRNG). */
function newConsumerSecret(): string {
  return randomBytes(32).toString('base64url');
}

async function requireAdmin(db: Kysely<DB>, actor: Actor, organisationId: string): Promise<void> {
  await requireOrgAccess(db, actor, organisationId, 'admin', { missing: 'not-found' });
}

/** Organisation.lti: the credentials, the secret decrypted. Admins only: a library manager gets a 403 too. */
export async function readCredentials(db: Kysely<DB>, env: Env, actor: Actor, organisationId: string): Promise<LtiCredentials> {
  await requireAdmin(db, actor, organisationId);
  const [row, usersCreated] = await Promise.all([repo.findCredentialsByOrganisation(db, organisationId), countLinkedUsers(db, organisationId)]);
  if (!row) return { consumerKey: null, consumerSecret: null, ...launchEndpoints(env), usersCreated };
  const secret = vaultFor(env).decrypt(row.consumer_secret, { organisationId, consumerKey: row.consumer_key });
  // A secret this server cannot decrypt (LTI_ENCRYPTION_KEY changed) shows as not generated: revoke and generate again.
  return { consumerKey: row.consumer_key, consumerSecret: secret, ...launchEndpoints(env), usersCreated };
}

/** generateLTICredentials: new key and secret; 409 when the organisation already has credentials. */
export async function generateCredentials(db: Kysely<DB>, env: Env, actor: Actor, organisationId: string): Promise<LtiCredentials> {
  await requireAdmin(db, actor, organisationId);
  const consumerKey = newConsumerKey();
  const consumerSecret = newConsumerSecret();
  const encryptedSecret = vaultFor(env).encrypt(consumerSecret, { organisationId, consumerKey });
  await db.transaction().execute(async (trx) => {
    const inserted = await repo.insertCredentials(trx, { organisationId, consumerKey, encryptedSecret });
    if (!inserted) throw appError('lti_credentials_exist');
    // The secret is never written to the audit trail or the log.
    await recordAudit(trx, actor, { organisationId, action: 'lti.generate', targetType: 'lti_credentials', targetIds: [consumerKey] });
  });
  return { consumerKey, consumerSecret, ...launchEndpoints(env), usersCreated: await countLinkedUsers(db, organisationId) };
}

/** revokeLTICredentials: deletes them, so the old key is refused from the next launch on. Idempotent. */
export async function revokeCredentials(db: Kysely<DB>, env: Env, actor: Actor, organisationId: string): Promise<LtiCredentials> {
  await requireAdmin(db, actor, organisationId);
  await db.transaction().execute(async (trx) => {
    const revoked = await repo.deleteCredentials(trx, organisationId);
    if (revoked) await recordAudit(trx, actor, { organisationId, action: 'lti.revoke', targetType: 'lti_credentials', targetIds: [revoked] });
  });
  return { consumerKey: null, consumerSecret: null, ...launchEndpoints(env), usersCreated: await countLinkedUsers(db, organisationId) };
}

/** Encrypts secrets still stored in plaintext (an earlier version, the demo seeder). Returns how many. */
export async function encryptPlaintextSecrets(db: Kysely<DB>, env: Env): Promise<number> {
  const vault = vaultFor(env);
  const rows = await repo.listPlaintextSecrets(db);
  for (const row of rows) {
    const encrypted = vault.encrypt(row.consumer_secret, { organisationId: row.organisation_id, consumerKey: row.consumer_key });
    await repo.updateSecret(db, row.organisation_id, row.consumer_secret, encrypted);
  }
  return rows.length;
}
