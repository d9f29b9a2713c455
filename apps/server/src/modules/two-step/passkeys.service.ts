import { randomBytes } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Passkey, PasskeyAdded, PasskeyOptions, TwoStepVerified } from '@quire/core';
import { TRUSTED_DEVICE_DAYS } from '@quire/core';
import { passkeyRelyingParty } from '../../env.js';
import { appError } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import * as repo from './two-step.repository.js';
import * as passkeys from './passkeys.repository.js';
import { auditOwn, countTry, mailChange, presentPasskey, refund, trustTokenHash, type TwoStepDeps } from './two-step.service.js';
import { hashRecoveryCode, newRecoveryCodes } from './totp.js';

/** A challenge must be answered within this time (WebAuthn's own timeout is a little shorter). */
const CHALLENGE_MINUTES = 5;
const TIMEOUT_MS = (CHALLENGE_MINUTES * 60 - 30) * 1000;

export interface PasskeyDeps extends TwoStepDeps {
  /** Makes a session for the person and answers a custom token for it, already past its second step (signed in with a passkey). */
  signInAs(userId: string): Promise<string>;
}

async function saveChallenge(deps: TwoStepDeps, challenge: string, purpose: passkeys.ChallengePurpose, person: Actor | null): Promise<void> {
  await passkeys.saveChallenge(deps.db, {
    challenge,
    purpose,
    userId: person?.userId ?? null,
    sessionId: person?.sessionId ?? null,
    expiresAt: new Date(Date.now() + CHALLENGE_MINUTES * 60_000),
  });
}

/**
 * The library refuses with an exception (wrong origin, RP id, signature, counter): one clear 400, nothing else said.
 * `challenge` is what the check found of the challenge: an unknown, used or expired one has its own message.
 */
async function checked<T>(check: () => Promise<T>, challenge: () => boolean | null): Promise<T> {
  try {
    return await check();
  } catch {
    throw appError(challenge() === false ? 'passkey_challenge_expired' : 'passkey_refused');
  }
}

export async function registrationOptions(deps: TwoStepDeps, actor: Actor): Promise<PasskeyOptions> {
  const { rpId } = passkeyRelyingParty(deps.env);
  const existing = await passkeys.listPasskeys(deps.db, actor.userId);
  const options = await generateRegistrationOptions({
    rpName: deps.env.PRODUCT_NAME,
    rpID: rpId,
    userName: actor.email,
    userDisplayName: actor.displayName || actor.email,
    // A stable handle per person: an authenticator keeps one passkey per account and site instead of piling them up.
    userID: new TextEncoder().encode(actor.userId),
    attestationType: 'none',
    timeout: TIMEOUT_MS,
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: p.transports })),
    // Discoverable (resident) credentials, so the same passkey can sign in without an e-mail address.
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await saveChallenge(deps, options.challenge, 'register', actor);
  return options as unknown as PasskeyOptions;
}

/**
 * Adds a passkey from the browser's answer to the options above. The first second factor of an account turns 2-step
 * verification on, as the authenticator app's confirmation does: recovery codes (shown this once), this session passed,
 * every other session ended.
 */
export async function addPasskey(deps: TwoStepDeps, actor: Actor, body: { name: string; response: unknown }): Promise<PasskeyAdded> {
  const { rpId, origin } = passkeyRelyingParty(deps.env);
  let challengeOk: boolean | null = null;
  const verification = await checked(
    () =>
      verifyRegistrationResponse({
        response: body.response as RegistrationResponseJSON,
        expectedChallenge: async (challenge) => (challengeOk = await passkeys.takeChallenge(deps.db, challenge, 'register', actor.userId, actor.sessionId ?? null)),
        expectedOrigin: origin,
        expectedRPID: rpId,
        requireUserVerification: false,
      }),
    () => challengeOk,
  );
  if (!verification.verified) throw appError('passkey_refused');
  const { credential, credentialBackedUp } = verification.registrationInfo;
  const recoveryCodes = newRecoveryCodes();
  const { added, turnedOn } = await deps.db.transaction().execute(async (trx) => {
    const wasOn = await repo.isEnrolled(trx, actor.userId);
    const row = await passkeys.insertPasskey(trx, {
      credentialId: credential.id,
      userId: actor.userId,
      name: body.name,
      publicKey: Buffer.from(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? [],
      backedUp: credentialBackedUp,
    });
    if (!row) throw appError('passkey_refused');
    if (!wasOn) {
      await repo.replaceRecoveryCodes(trx, actor.userId, recoveryCodes.map(hashRecoveryCode));
      if (actor.sessionId) await repo.markSessionSecondStep(trx, actor.sessionId, 'enrolment');
      await repo.endOtherSessions(trx, actor.userId, actor.sessionId ?? null);
      await auditOwn(trx, actor, 'security.two_step.enabled', { method: 'passkey' });
    }
    await auditOwn(trx, actor, 'security.two_step.method_added', { method: 'passkey', name: body.name });
    return { added: row, turnedOn: !wasOn };
  });
  if (turnedOn) {
    await mailChange(deps, actor.email, '2-step verification was turned on', `A passkey ("${body.name}") was added to your account. Signing in now also asks for it, or for a code.`);
  } else {
    await mailChange(deps, actor.email, 'A passkey was added to your account', `The passkey "${body.name}" can now sign in to your account.`);
  }
  return { passkey: presentPasskey(added), recoveryCodes: turnedOn ? recoveryCodes : null };
}

export async function renamePasskey(deps: TwoStepDeps, actor: Actor, credentialId: string, name: string): Promise<Passkey> {
  const renamed = await deps.db.transaction().execute(async (trx) => {
    const before = await passkeys.findPasskey(trx, credentialId, actor.userId);
    if (!before) throw appError('passkey_not_found');
    const row = await passkeys.renamePasskey(trx, actor.userId, credentialId, name);
    if (!row) throw appError('passkey_not_found');
    if (before.name !== name) await auditOwn(trx, actor, 'security.two_step.method_renamed', { method: 'passkey', from: before.name, to: name });
    return { row, changed: before.name !== name, from: before.name };
  });
  if (renamed.changed) await mailChange(deps, actor.email, 'A passkey was renamed on your account', `The passkey "${renamed.from}" is now called "${name}".`);
  return presentPasskey(renamed.row);
}

/** Removes a passkey; the last second factor is not removed this way (turning 2-step verification off asks for proof). */
export async function removePasskey(deps: TwoStepDeps, actor: Actor, credentialId: string): Promise<{ enabled: boolean }> {
  const name = await deps.db.transaction().execute(async (trx) => {
    const passkey = await passkeys.findPasskey(trx, credentialId, actor.userId);
    if (!passkey) throw appError('passkey_not_found');
    const factor = await repo.findFactor(trx, actor.userId);
    if (!factor?.confirmed_at && (await passkeys.countPasskeys(trx, actor.userId)) <= 1) throw appError('passkey_last_method');
    await passkeys.deletePasskey(trx, actor.userId, credentialId);
    await auditOwn(trx, actor, 'security.two_step.method_removed', { method: 'passkey', name: passkey.name });
    return passkey.name;
  });
  await mailChange(deps, actor.email, 'A passkey was removed from your account', `The passkey "${name}" can no longer sign in to your account.`);
  return { enabled: true };
}

/** Checks a signature against a stored passkey and records its use; the counter must have moved on (a cloned key would not). */
async function checkAssertion(
  deps: TwoStepDeps,
  response: AuthenticationResponseJSON,
  expect: { purpose: passkeys.ChallengePurpose; person: Actor | null; userVerification: boolean },
): Promise<{ userId: string }> {
  const { rpId, origin } = passkeyRelyingParty(deps.env);
  const stored = await passkeys.findPasskey(deps.db, response.id, expect.person?.userId);
  let challengeOk: boolean | null = null;
  const takeChallenge = async (challenge: string) =>
    (challengeOk = await passkeys.takeChallenge(deps.db, challenge, expect.purpose, expect.person?.userId ?? null, expect.person?.sessionId ?? null));
  if (!stored) {
    // The challenge is used up all the same, so a refused answer cannot be tried again with it.
    const challenge = challengeOf(response);
    if (challenge) await takeChallenge(challenge);
    throw appError('passkey_refused');
  }
  const verification = await checked(
    () =>
      verifyAuthenticationResponse({
        response,
        expectedChallenge: takeChallenge,
        expectedOrigin: origin,
        expectedRPID: rpId,
        credential: { id: stored.credential_id, publicKey: new Uint8Array(stored.public_key), counter: Number(stored.counter), transports: stored.transports },
        requireUserVerification: expect.userVerification,
      }),
    () => challengeOk,
  );
  if (!verification.verified) throw appError('passkey_refused');
  if (!(await passkeys.recordUse(deps.db, stored.credential_id, stored.counter, verification.authenticationInfo.newCounter))) throw appError('passkey_refused');
  return { userId: stored.user_id };
}

function challengeOf(response: AuthenticationResponseJSON): string | null {
  try {
    const data = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof data.challenge === 'string' ? data.challenge : null;
  } catch {
    return null;
  }
}

/** Options for the second step: the person's own passkeys. */
export async function secondStepOptions(deps: TwoStepDeps, person: Actor): Promise<PasskeyOptions> {
  if (!person.sessionId || person.twoStep !== 'second-step') throw appError('two_step_not_on');
  const own = await passkeys.listPasskeys(deps.db, person.userId);
  if (own.length === 0) throw appError('passkey_not_found');
  const options = await generateAuthenticationOptions({
    rpID: passkeyRelyingParty(deps.env).rpId,
    allowCredentials: own.map((p) => ({ id: p.credential_id, transports: p.transports })),
    userVerification: 'preferred',
    timeout: TIMEOUT_MS,
  });
  await saveChallenge(deps, options.challenge, 'second-step', person);
  return options as unknown as PasskeyOptions;
}

/** The sign-in's second step with a passkey (counted like a code try when refused). */
export async function verifySecondStepPasskey(
  deps: TwoStepDeps,
  person: Actor,
  body: { response: unknown; trustDevice: boolean },
  ip: string,
): Promise<{ answer: TwoStepVerified; trustToken: string | null }> {
  if (!person.sessionId || person.twoStep !== 'second-step') throw appError('two_step_not_on');
  const tries = await countTry(deps.db, person.userId, ip);
  await checkAssertion(deps, body.response as AuthenticationResponseJSON, { purpose: 'second-step', person, userVerification: false });
  const trustToken = body.trustDevice ? randomBytes(32).toString('base64url') : null;
  await deps.db.transaction().execute(async (trx) => {
    await repo.markSessionSecondStep(trx, person.sessionId!, 'passkey');
    if (trustToken) await repo.addTrustedDevice(trx, person.userId, trustTokenHash(trustToken), new Date(Date.now() + TRUSTED_DEVICE_DAYS * 86_400_000));
    await auditOwn(trx, person, 'security.two_step.signed_in', { method: 'passkey', trustedDevice: trustToken !== null });
  });
  await refund(deps.db, tries);
  return { answer: { method: 'passkey', recoveryCodesRemaining: await repo.countRecoveryCodes(deps.db, person.userId) }, trustToken };
}

/** Options for signing in with a passkey alone: any passkey of this site (the browser lists them), verified user. */
export async function signInOptions(deps: TwoStepDeps): Promise<PasskeyOptions> {
  const options = await generateAuthenticationOptions({ rpID: passkeyRelyingParty(deps.env).rpId, userVerification: 'required', timeout: TIMEOUT_MS });
  await saveChallenge(deps, options.challenge, 'sign-in', null);
  return options as unknown as PasskeyOptions;
}

/**
 * A sign-in with a passkey alone counts as both steps: the passkey is something the person has, unlocked by something
 * they know or are (user verification is required). Answers a custom token, as the e-mail sign-in does.
 */
export async function signInWithPasskey(deps: PasskeyDeps, response: unknown): Promise<{ token: string; emailVerified: boolean }> {
  const { userId } = await checkAssertion(deps, response as AuthenticationResponseJSON, { purpose: 'sign-in', person: null, userVerification: true });
  const user = await deps.db.selectFrom('user').select(['id', 'email', 'name', 'emailVerified']).where('id', '=', userId).executeTakeFirst();
  if (!user) throw appError('passkey_refused');
  const token = await deps.signInAs(user.id);
  await auditOwn(deps.db, { userId: user.id, email: user.email, displayName: user.name, emailVerified: user.emailVerified }, 'security.two_step.signed_in', {
    method: 'passkey',
    withoutPassword: true,
  });
  return { token, emailVerified: user.emailVerified };
}
