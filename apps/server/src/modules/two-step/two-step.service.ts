import { createHash, randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { isProviderStaffEmail, TRUSTED_DEVICE_DAYS, type AuthenticatorSetup, type Passkey, type RecoveryCodes, type TwoStepMethod, type TwoStepPolicy, type TwoStepProof, type TwoStepStatus, type TwoStepVerified, type AuditAction } from '@quire/core';
import type { DB } from '../../db/types.js';
import type { Env } from '../../env.js';
import { appError } from '../../errors.js';
import { countRequest, refundRequest } from '../../db/rate-limit.repository.js';
import type { Actor } from '../access/actor.js';
import { recordAudit, recordAuditIn } from '../access/audit.js';
import { isListedAdmin, requireOrgAccess } from '../access/org-access.js';
import * as repo from './two-step.repository.js';
import { listPasskeys } from './passkeys.repository.js';
import { hashRecoveryCode, newRecoveryCodes, newTotpSecret, openSecret, parseCode, qrCodeSvg, sealSecret, totpStep, totpUri } from './totp.js';

/** The browser a person trusts for the second step; only sign-in routes (under /identity) read it. */
export const TRUST_COOKIE = '__two_step_trust';

/** An authenticator set-up must be confirmed with a first code within this time. */
const ENROLMENT_MINUTES = 10;

/**
 * Wrong codes (and wrong passwords when turning it off), per account and per client address, in windows of 15 minutes:
 * only failures count (a right code gives its try back), as with passwords (identity/rate-limit.ts). Read at call time
 * so tests can change them. @internal
 */
export const TWO_STEP_LIMITS = {
  perAccount: { max: 5, windowMs: 15 * 60_000 },
  perAddress: { max: 10, windowMs: 15 * 60_000 },
};

export interface TwoStepDeps {
  db: Kysely<DB>;
  env: Env;
  sendMail(mail: { to: string; subject: string; text: string }): Promise<unknown>;
  /** The identity provider's own password check (the hash of the person's e-mail-and-password account). */
  verifyPassword(hash: string, password: string): Promise<boolean>;
}

type Db = Kysely<DB> | Transaction<DB>;

/** Counts a code try before it is checked; 429 with how long to wait once there were too many. */
export async function countTry(db: Kysely<DB>, userId: string, ip: string): Promise<string[]> {
  const checks = [
    { key: `2step-acct|${userId}`, ...TWO_STEP_LIMITS.perAccount },
    { key: `2step-addr|${ip}`, ...TWO_STEP_LIMITS.perAddress },
  ];
  let waitMs = 0;
  for (const check of checks) {
    const { hits, ttl } = await countRequest(db, check.key, check.windowMs);
    if (hits > check.max) waitMs = Math.max(waitMs, ttl);
  }
  if (waitMs > 0) {
    const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
    throw appError('two_step_too_many_tries', {
      message: `Too many wrong codes. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      details: { retryAfterSeconds: Math.ceil(waitMs / 1000) },
    });
  }
  return checks.map((c) => c.key);
}

export const refund = (db: Kysely<DB>, keys: string[]) => Promise.all(keys.map((key) => refundRequest(db, key)));

/**
 * Checks a code against the person's confirmed authenticator (accepted once: its step is recorded) or their unused
 * recovery codes (used up). Null when it is wrong or used; 400 when it is neither kind of code.
 */
async function useCode(db: Db, env: Env, userId: string, input: string): Promise<Exclude<TwoStepMethod, 'passkey' | 'trusted_device' | 'enrolment'> | null> {
  const parsed = parseCode(input);
  if (!parsed) throw appError('two_step_code_malformed');
  if (parsed.kind === 'recovery') return (await repo.useRecoveryCode(db, userId, hashRecoveryCode(parsed.code))) ? 'recovery_code' : null;
  const factor = await repo.findFactor(db, userId);
  if (!factor?.confirmed_at) return null;
  const secret = await openSecret(factor.totp_secret, secretKey(env));
  const step = await totpStep(secret, parsed.code, factor.last_totp_step === null ? null : Number(factor.last_totp_step));
  return step !== null && (await repo.claimTotpStep(db, userId, step)) ? 'totp' : null;
}

function secretKey(env: Env): string {
  if (!env.AUTH_SECRET) throw new Error('AUTH_SECRET is not set');
  return env.AUTH_SECRET;
}

/**
 * Records a change of the person's own 2-step verification in each organisation they administer. Someone who
 * administers none has no organisation's audit log to write to (every audit entry belongs to one organisation, the key
 * it is sharded by: docs/scale-out.md): the change goes to their own access log instead, as their sign-ins do.
 */
export async function auditOwn(db: Db, actor: Actor, action: AuditAction, details: Record<string, unknown> = {}): Promise<void> {
  const organisations = await repo.listedAdminOrganisations(db, actor.userId, actor.email);
  if (organisations.length === 0) {
    await repo.insertOwnAccessEvent(db, { userId: actor.userId, event: action, ip: actor.client?.ip ?? null, userAgent: actor.client?.userAgent?.slice(0, 512) ?? null });
    return;
  }
  await recordAuditIn(db, organisations, actor, { action, targetType: 'user', targetIds: [actor.userId], details });
}

export function mailChange(deps: TwoStepDeps, to: string, what: string, detail: string): Promise<unknown> {
  return deps.sendMail({
    to,
    subject: `${what} — ${deps.env.PRODUCT_NAME}`,
    text: `${what}.\n\n${detail}\n\nIf this was not you, change your password and ask another admin of your organisation to reset your 2-step verification.`,
  });
}

async function requiredBy(db: Db, env: Env, actor: Actor): Promise<TwoStepStatus['requiredBy']> {
  if (env.PROVIDER_STAFF_TWO_STEP === 'required' && isProviderStaffEmail(actor.email, env.PROVIDER_EMAIL_DOMAIN)) return 'provider-staff';
  return (await repo.requiredByOrganisation(db, actor.userId, actor.email)) ? 'organisation' : null;
}

/** A passkey as the Security page shows it. */
export function presentPasskey(row: { credential_id: string; name: string; created_at: Date; last_used_at: Date | null }): Passkey {
  return { id: row.credential_id, name: row.name, createdAt: row.created_at.toISOString(), lastUsedAt: row.last_used_at?.toISOString() ?? null };
}

export async function readStatus(deps: TwoStepDeps, actor: Actor): Promise<TwoStepStatus> {
  const { db, env } = deps;
  const [factor, remaining, reason, password, passkeys] = await Promise.all([
    repo.findFactor(db, actor.userId),
    repo.countRecoveryCodes(db, actor.userId),
    requiredBy(db, env, actor),
    repo.hasPassword(db, actor.userId),
    listPasskeys(db, actor.userId),
  ]);
  const confirmed = factor?.confirmed_at ?? null;
  const enabled = confirmed !== null || passkeys.length > 0;
  return {
    enabled,
    authenticatorAddedAt: confirmed ? confirmed.toISOString() : null,
    recoveryCodesRemaining: enabled ? remaining : 0,
    requiredBy: reason,
    hasPassword: password !== null,
    passkeys: passkeys.map(presentPasskey),
  };
}

/** A new authenticator set-up (a secret, its QR code), replacing any unconfirmed one. */
export async function startAuthenticator(deps: TwoStepDeps, actor: Actor): Promise<AuthenticatorSetup> {
  const { db, env } = deps;
  const existing = await repo.findFactor(db, actor.userId);
  if (existing?.confirmed_at) throw appError('two_step_already_on');
  const secret = newTotpSecret();
  const createdAt = await repo.savePendingFactor(db, actor.userId, await sealSecret(secret, secretKey(env)));
  const uri = totpUri(secret, env.PRODUCT_NAME, actor.email);
  return { secret, uri, qrCodeSvg: await qrCodeSvg(uri), expiresAt: new Date(createdAt.getTime() + ENROLMENT_MINUTES * 60_000).toISOString() };
}

/**
 * Turns 2-step verification on with the first code of the set-up: recovery codes are made (shown this once), this
 * session counts as having passed its second step, and every other session of the person ends.
 */
export async function confirmAuthenticator(deps: TwoStepDeps, actor: Actor, code: string, ip: string): Promise<RecoveryCodes> {
  const { db, env } = deps;
  const parsed = parseCode(code);
  if (parsed?.kind !== 'totp') throw appError('two_step_code_malformed');
  const tries = await countTry(db, actor.userId, ip);
  const recoveryCodes = newRecoveryCodes();
  // With a passkey already, 2-step verification was on: the app is one more method (the new codes replace the old).
  const turnedOn = await db.transaction().execute(async (trx) => {
    const factor = await repo.findFactor(trx, actor.userId, true);
    if (factor?.confirmed_at) throw appError('two_step_already_on');
    const wasOn = await repo.isEnrolled(trx, actor.userId);
    if (!factor || factor.created_at.getTime() + ENROLMENT_MINUTES * 60_000 < Date.now()) throw appError('two_step_enrolment_expired');
    const secret = await openSecret(factor.totp_secret, secretKey(env));
    const step = await totpStep(secret, parsed.code, null);
    if (step === null) throw appError('two_step_code_wrong');
    await repo.claimTotpStep(trx, actor.userId, step);
    await repo.confirmFactor(trx, actor.userId);
    await repo.replaceRecoveryCodes(trx, actor.userId, recoveryCodes.map(hashRecoveryCode));
    if (!wasOn) {
      if (actor.sessionId) await repo.markSessionSecondStep(trx, actor.sessionId, 'enrolment');
      await repo.endOtherSessions(trx, actor.userId, actor.sessionId ?? null);
      await auditOwn(trx, actor, 'security.two_step.enabled', { method: 'authenticator' });
    }
    await auditOwn(trx, actor, 'security.two_step.method_added', { method: 'authenticator' });
    return !wasOn;
  });
  await refund(db, tries);
  if (turnedOn) await mailChange(deps, actor.email, '2-step verification was turned on', 'An authenticator app was added to your account. Signing in now also asks for a code from it.');
  else await mailChange(deps, actor.email, 'An authenticator app was added to your account', 'Signing in can now also use a code from it. Your earlier recovery codes no longer work.');
  return { recoveryCodes };
}

/** The password or a current code, counted like a code try. */
async function checkProof(deps: TwoStepDeps, trx: Db, actor: Actor, proof: TwoStepProof): Promise<void> {
  if (proof.code) {
    if (!(await useCode(trx, deps.env, actor.userId, proof.code))) throw appError('two_step_proof_wrong');
    return;
  }
  const hash = await repo.hasPassword(trx, actor.userId);
  if (!hash || !(await deps.verifyPassword(hash, proof.password ?? ''))) throw appError('two_step_proof_wrong');
}

async function withProof<T>(deps: TwoStepDeps, actor: Actor, proof: TwoStepProof, ip: string, change: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  const tries = await countTry(deps.db, actor.userId, ip);
  const result = await deps.db.transaction().execute(async (trx) => {
    await checkProof(deps, trx, actor, proof);
    return change(trx);
  });
  await refund(deps.db, tries);
  return result;
}

export async function regenerateRecoveryCodes(deps: TwoStepDeps, actor: Actor, proof: TwoStepProof, ip: string): Promise<RecoveryCodes> {
  if (!(await repo.isEnrolled(deps.db, actor.userId))) throw appError('two_step_not_on');
  const recoveryCodes = newRecoveryCodes();
  await withProof(deps, actor, proof, ip, async (trx) => {
    await repo.replaceRecoveryCodes(trx, actor.userId, recoveryCodes.map(hashRecoveryCode));
    await auditOwn(trx, actor, 'security.two_step.recovery_codes_regenerated');
  });
  await mailChange(deps, actor.email, 'New recovery codes were made for your account', 'Your earlier recovery codes no longer work.');
  return { recoveryCodes };
}

export async function disableTwoStep(deps: TwoStepDeps, actor: Actor, proof: TwoStepProof, ip: string): Promise<{ enabled: false }> {
  const factor = await repo.findFactor(deps.db, actor.userId);
  const passkeys = await listPasskeys(deps.db, actor.userId);
  if (!factor?.confirmed_at && passkeys.length === 0) throw appError('two_step_not_on');
  await withProof(deps, actor, proof, ip, async (trx) => {
    await repo.removeTwoStep(trx, actor.userId);
    if (factor?.confirmed_at) await auditOwn(trx, actor, 'security.two_step.method_removed', { method: 'authenticator' });
    for (const passkey of passkeys) await auditOwn(trx, actor, 'security.two_step.method_removed', { method: 'passkey', name: passkey.name });
    await auditOwn(trx, actor, 'security.two_step.disabled');
  });
  await mailChange(deps, actor.email, '2-step verification was turned off', 'Signing in to your account now needs only your password.');
  return { enabled: false };
}

/** The sign-in's second step: a code or a recovery code; with trustDevice, a cookie value that skips it for 30 days. */
export async function verifySecondStep(
  deps: TwoStepDeps,
  person: Actor,
  body: { code: string; trustDevice: boolean },
  ip: string,
): Promise<{ answer: TwoStepVerified; trustToken: string | null }> {
  const { db, env } = deps;
  if (!person.sessionId || person.twoStep !== 'second-step') throw appError('two_step_not_on');
  if (!parseCode(body.code)) throw appError('two_step_code_malformed');
  const tries = await countTry(db, person.userId, ip);
  const trustToken = body.trustDevice ? randomBytes(32).toString('base64url') : null;
  const method = await db.transaction().execute(async (trx) => {
    const used = await useCode(trx, env, person.userId, body.code);
    if (!used) return null;
    await repo.markSessionSecondStep(trx, person.sessionId!, used);
    if (trustToken) await repo.addTrustedDevice(trx, person.userId, trustTokenHash(trustToken), new Date(Date.now() + TRUSTED_DEVICE_DAYS * 86_400_000));
    await auditOwn(trx, person, 'security.two_step.signed_in', { method: used, trustedDevice: trustToken !== null });
    return used;
  });
  if (!method) throw appError('two_step_code_wrong');
  await refund(db, tries);
  return { answer: { method, recoveryCodesRemaining: await repo.countRecoveryCodes(db, person.userId) }, trustToken };
}

export const trustTokenHash = (token: string): Buffer => createHash('sha256').update(token).digest();

/**
 * Right after a sign-in made a session: a browser the person trusted passes the second step at once (recorded as
 * such). Answers the session's 2-step state as get-session reports it.
 */
export async function afterSignIn(db: Kysely<DB>, sessionToken: string, cookies: Record<string, string | undefined>): Promise<'second-step' | null> {
  const session = await repo.sessionByToken(db, sessionToken);
  if (!session?.enrolled || session.twoStepMethod) return null;
  const trustToken = cookies[TRUST_COOKIE];
  if (trustToken && (await repo.isTrustedDevice(db, session.userId, trustTokenHash(trustToken)))) {
    await db.transaction().execute(async (trx) => {
      await repo.markSessionSecondStep(trx, session.sessionId, 'trusted_device');
      await auditOwn(trx, { userId: session.userId, email: session.email, displayName: '', emailVerified: true }, 'security.two_step.signed_in', { method: 'trusted_device' });
    });
    return null;
  }
  return 'second-step';
}

/** Another admin of the organisation removes a locked-out admin's second factor (their sessions end too). */
export async function resetForAdmin(deps: TwoStepDeps, actor: Actor, organisationId: string, userId: string): Promise<{ enabled: false }> {
  const { db } = deps;
  await requireOrgAccess(db, actor, organisationId, 'admin');
  if (userId === actor.userId) throw appError('two_step_reset_self');
  const target = await db.selectFrom('user').select(['id', 'email']).where('id', '=', userId).executeTakeFirst();
  if (!target || !(await isListedAdmin(db, { userId: target.id, email: target.email }, organisationId))) throw appError('user_not_found');
  if (!(await repo.isEnrolled(db, target.id))) throw appError('two_step_not_on');
  await db.transaction().execute(async (trx) => {
    await repo.removeTwoStep(trx, target.id);
    await repo.endOtherSessions(trx, target.id, null);
    await recordAudit(trx, actor, { organisationId, action: 'security.two_step.reset', targetType: 'user', targetIds: [target.id], details: { email: target.email } });
  });
  await mailChange(
    deps,
    target.email,
    '2-step verification was reset on your account',
    `${actor.displayName || actor.email}, an admin of your organisation, removed your authenticator app, passkeys and recovery codes. Sign in with your password and turn 2-step verification on again.`,
  );
  return { enabled: false };
}

export async function readPolicy(db: Kysely<DB>, actor: Actor, organisationId: string): Promise<TwoStepPolicy> {
  await requireOrgAccess(db, actor, organisationId, 'read');
  const { own, above } = await repo.readPolicy(db, organisationId);
  return { requireForAdmins: own, requiredByAbove: above };
}

export async function writePolicy(db: Kysely<DB>, actor: Actor, organisationId: string, required: boolean): Promise<TwoStepPolicy> {
  return db.transaction().execute(async (trx) => {
    await requireOrgAccess(trx, actor, organisationId, 'admin');
    const before = await repo.readPolicy(trx, organisationId);
    if (before.own !== required) {
      await repo.writePolicy(trx, organisationId, required);
      await recordAudit(trx, actor, { organisationId, action: 'security.two_step.policy_changed', details: { requireForAdmins: required } });
    }
    return { requireForAdmins: required, requiredByAbove: before.above };
  });
}
