import { adminEmailsRefusal, adminEmailsSchema, adminMessages, isProviderStaffEmail, parseEmailList, type AdminEmailRules, type ErrorCode } from '@quire/core';
import { GraphqlError, hasErrorCode } from '../../../lib/api/index.js';

/** The addresses typed into 'Add admins', checked with the core rules; error is null when they may be sent. */
export interface AdminEmailsCheck {
  emails: string[];
  error: string | null;
}

/**
 * One or more addresses, separated by new lines, commas or semicolons, checked by adminEmailsSchema of
 * @quire/core as the server checks them (spec §5): empty, invalid ('Invalid email address: a, b'), the
 * provider's domain or a subdomain of it, a district-SSO domain.
 */
export function checkAdminEmails(text: string, rules: AdminEmailRules): AdminEmailsCheck {
  const { valid, invalid } = parseEmailList(text);
  const parsed = adminEmailsSchema(rules).safeParse([...valid, ...invalid]);
  if (parsed.success) return { emails: parsed.data, error: null };
  const refusal = adminEmailsRefusal(parsed.error);
  const error = refusal.code === 'invalid_email' ? `${refusal.message}: ${refusal.emails.join(', ')}` : refusal.message;
  return { emails: valid, error };
}

/** The server refused the addresses themselves (empty, invalid, provider staff): its message belongs beside the field. */
const FIELD_CODES: ErrorCode[] = ['email_required', 'invalid_email', 'provider_email', 'district_sso', 'too_many_emails'];

/** How a failed importAdmins is shown: the banner text, and the message for the field when it is about the addresses. */
export function importFailureTexts(error: unknown): { banner: string; field: string | null } {
  if (error instanceof GraphqlError && hasErrorCode(error, ...FIELD_CODES)) {
    return { banner: adminMessages.addFailed, field: error.message };
  }
  return { banner: adminMessages.importFailed, field: null };
}

/** A failed deleteAdmins: the last admin's refusal is shown as the server gives it (spec: show its reason). */
export function removeFailureText(error: unknown): string {
  if (error instanceof GraphqlError && hasErrorCode(error, 'last_admin')) return error.message;
  return adminMessages.removeFailed;
}

/** 'n admins added' and the like, for the info notice after an import. */
export function importedText(result: { added: string[]; existing: string[] }): string {
  const added = result.added.length === 1 ? '1 admin added' : `${result.added.length} admins added`;
  if (!result.existing.length) return added;
  const existing = result.existing.length === 1 ? '1 was already an admin' : `${result.existing.length} were already admins`;
  return `${added}, ${existing}`;
}

/** How the console tells provider-staff admins apart: a label for their badge, and the test on an address. */
export interface ProviderStaff {
  label: string;
  is: (email: string) => boolean;
  /** Why removing one is final for the organisation (it cannot add staff back). */
  removalNote: string;
}

/** Provider staff as the console config describes them (PROVIDER_EMAIL_DOMAIN, PRODUCT_NAME). */
export function providerStaff(config: { providerEmailDomain: string; productName: string }): ProviderStaff {
  const product = config.productName;
  return {
    label: `${product} staff`,
    is: (email) => isProviderStaffEmail(email, config.providerEmailDomain),
    removalNote: `${product} staff support your organisation. Once removed, only ${product} can make them an admin again.`,
  };
}
