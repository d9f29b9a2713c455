import { PASSWORD_MIN_LENGTH } from './constants.js';
import { authMessages, validationMessages } from './messages.js';

/**
 * A standard address pattern: local part of letters, digits and _ ' + - (dots between), '@', then
 * dot-separated domain labels ending in a top-level domain of 2+ letters. The same pattern as zod's
 * `z.email()`, so the console and the server's schemas agree on every address.
 */
const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/**
 * The top-level domain RFC 2606 reserves for names that can never exist. No person has such an address, and
 * the accounts LTI launches create hold one (`lti.invalid`: docs/lti.md), so none is ever taken as input.
 */
const RESERVED_INVALID_TLD = /\.invalid$/i;

/** True when the (trimmed) value is a well-formed e-mail address that can exist. */
export function isValidEmail(value: string): boolean {
  const v = value.trim();
  return EMAIL_PATTERN.test(v) && !RESERVED_INVALID_TLD.test(v);
}

/** null when valid, else the §5 text. */
export function validateEmail(value: string | null | undefined): string | null {
  const v = (value ?? '').trim();
  if (!v) return validationMessages.emailRequired;
  return isValidEmail(v) ? null : validationMessages.emailInvalid;
}

/** null when valid, else the §5 text. Passwords are not trimmed: spaces count. */
export function validatePassword(value: string | null | undefined): string | null {
  const v = value ?? '';
  if (!v) return validationMessages.passwordRequired;
  return v.length < PASSWORD_MIN_LENGTH ? validationMessages.passwordTooShort : null;
}

/** null when valid, else the §5 text. */
export function validateName(value: string | null | undefined): string | null {
  return (value ?? '').trim() ? null : validationMessages.nameRequired;
}

/** The form addresses are stored and compared in. */
export function normaliseEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** The part after the last '@', lower-cased; '' when there is none. */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? '' : email.slice(at + 1).trim().toLowerCase();
}

function cleanDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/^@/, '');
}

/** Provider staff are recognised by the provider's e-mail domain (case-insensitive, exact domain). */
export function isProviderStaffEmail(email: string, providerDomain: string): boolean {
  const domain = cleanDomain(providerDomain);
  return domain !== '' && emailDomain(email) === domain;
}

/**
 * E-mails of the district-SSO domains must sign in through the district's SSO (§5).
 * Matches the domain itself and its subdomains, case-insensitive.
 */
export function isDistrictSsoEmail(email: string, domains: readonly string[]): boolean {
  const d = emailDomain(email);
  if (!d) return false;
  return domains.map(cleanDomain).some((x) => x !== '' && (d === x || d.endsWith(`.${x}`)));
}

/** Sign-in only: e-mails ending with a city-government suffix may not use e-mail and password (§5). */
export function isCityGovernmentEmail(email: string, suffixes: readonly string[]): boolean {
  const e = normaliseEmail(email);
  return suffixes.map((s) => s.trim().toLowerCase()).some((s) => s !== '' && e.endsWith(s));
}

/** The refusal text for a sign-in e-mail, or null when the address may sign in with a password. */
export function signInDomainError(
  email: string,
  rules: { districtSsoDomains: readonly string[]; cityGovernmentSuffixes: readonly string[] },
): string | null {
  if (isDistrictSsoEmail(email, rules.districtSsoDomains)) return authMessages.districtSso;
  if (isCityGovernmentEmail(email, rules.cityGovernmentSuffixes)) return authMessages.cityGovernment;
  return null;
}

export interface ParsedEmailList {
  /** Valid addresses, lower-cased, first occurrence order, no duplicates. */
  valid: string[];
  /** Invalid entries, lower-cased, no duplicates. */
  invalid: string[];
}

/** Import entries: split on newline, comma or semicolon, trimmed, lower-cased, blanks dropped (§5). */
export function parseEmailList(text: string): ParsedEmailList {
  const seen = new Set<string>();
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const raw of text.split(/[\n\r,;]+/)) {
    const entry = normaliseEmail(raw);
    if (!entry || seen.has(entry)) continue;
    seen.add(entry);
    (isValidEmail(entry) ? valid : invalid).push(entry);
  }
  return { valid, invalid };
}

/** 'n teacher is ready to import' / 'n teachers are ready to import'. */
export function readyToImportText(count: number): string {
  return count === 1 ? '1 teacher is ready to import' : `${count} teachers are ready to import`;
}

/** 'n invalid email address' / 'n invalid email addresses'. */
export function invalidEmailsText(count: number): string {
  return count === 1 ? '1 invalid email address' : `${count} invalid email addresses`;
}

/** Import is enabled only when there is at least one entry and every entry is valid (§5). */
export function canImport(list: ParsedEmailList): boolean {
  return list.valid.length > 0 && list.invalid.length === 0;
}
