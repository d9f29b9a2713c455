import { describe, expect, it } from 'vitest';
import { hashRecoveryCode, newRecoveryCodes, parseCode, totpStep } from './totp.js';

// RFC 6238 Appendix B: the SHA-1 seed "12345678901234567890", in Base32; codes are the vectors' last six digits.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const at = (seconds: number) => new Date(seconds * 1000);

describe('authenticator codes (RFC 6238 test vectors)', () => {
  it.each([
    [59, '287082'],
    [1111111109, '081804'],
    [1111111111, '050471'],
    [1234567890, '005924'],
    [2000000000, '279037'],
    [20000000000, '353130'],
  ])('at T=%i the code is %s', async (seconds, code) => {
    expect(await totpStep(RFC_SECRET, code, null, at(seconds))).toBe(Math.floor(seconds / 30));
  });

  it('accepts a code of the step before or after, not two steps away', async () => {
    // 287082 is the code of step 1 (T=30..59).
    expect(await totpStep(RFC_SECRET, '287082', null, at(89))).toBe(1);
    expect(await totpStep(RFC_SECRET, '287082', null, at(5))).toBe(1);
    expect(await totpStep(RFC_SECRET, '287082', null, at(95))).toBeNull();
  });

  it('refuses a code of a step already used (the replay rule of RFC 6238 section 5.2)', async () => {
    expect(await totpStep(RFC_SECRET, '287082', 1, at(59))).toBeNull();
    expect(await totpStep(RFC_SECRET, '287082', 0, at(59))).toBe(1);
  });
});

describe('recovery codes', () => {
  it('are ten distinct xxxxx-xxxxx codes, matched whatever the case, hyphen or spaces', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const code = codes[0]!;
    expect(parseCode(` ${code.toUpperCase()} `)).toEqual({ kind: 'recovery', code: code.replace('-', '') });
    expect(hashRecoveryCode(code.replace('-', ''))).toEqual(hashRecoveryCode(code.toUpperCase()));
  });

  it('tells codes from malformed input', () => {
    expect(parseCode('123 456')).toEqual({ kind: 'totp', code: '123456' });
    expect(parseCode('12345')).toBeNull();
    expect(parseCode('<script>')).toBeNull();
    expect(parseCode('')).toBeNull();
  });
});
