import { createHash, randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { symmetricDecrypt, symmetricEncrypt } from 'better-auth/crypto';
import { RECOVERY_CODE_COUNT } from '@quire/core';

/**
 * Authenticator-app codes (RFC 6238: HMAC-SHA-1, 6 digits, 30-second steps) by otplib, and recovery codes. otplib
 * checks a code; it does not remember which step was used last, so the replay rule of RFC 6238 section 5.2 is kept by
 * the caller: the step an accepted code belonged to is stored, and a code of that step or an earlier one is refused
 * (two_step.repository.ts, claimTotpStep, in the same statement that records it).
 */
const TOTP_PERIOD_SECONDS = 30;
/** A code of the step before or after the current one is accepted too (clocks a little apart). */
const TOTP_TOLERANCE_SECONDS = TOTP_PERIOD_SECONDS;

export const newTotpSecret = (): string => generateSecret({ length: 20 });

export function totpUri(secret: string, issuer: string, account: string): string {
  return generateURI({ issuer, label: account, secret, algorithm: 'sha1', digits: 6, period: TOTP_PERIOD_SECONDS });
}

export function qrCodeSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

/** The time step of the code when it is right for `secret` now (±1 step) and after `afterStep`; else null. */
export async function totpStep(secret: string, code: string, afterStep: number | null, now: Date = new Date()): Promise<number | null> {
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: TOTP_TOLERANCE_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** The secret as stored: encrypted with the server's secret (Better Auth's symmetric encryption, as its own plugin does). */
export const sealSecret = (secret: string, key: string) => symmetricEncrypt({ key, data: secret });
export const openSecret = (sealed: string, key: string) => symmetricDecrypt({ key, data: sealed });

/** Letters and digits that cannot be mistaken for one another when copied by hand. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten new recovery codes, `xxxxx-xxxxx` (about 49 bits each; wrong tries are limited like codes). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** What a typed code is: six digits, a recovery code (hyphen, spaces and case ignored), or neither. */
export function parseCode(input: string): { kind: 'totp'; code: string } | { kind: 'recovery'; code: string } | null {
  const compact = input.replace(/[\s-]/g, '').toLowerCase();
  if (/^\d{6}$/.test(compact)) return { kind: 'totp', code: compact };
  if (/^[a-z0-9]{10}$/.test(compact)) return { kind: 'recovery', code: compact };
  return null;
}

/** A recovery code as stored: only its SHA-256 (the codes are random, so no salt or slow hash is needed). */
export const hashRecoveryCode = (compact: string): Buffer => createHash('sha256').update(compact.replace(/[\s-]/g, '').toLowerCase()).digest();
