import { adminMessages, isProviderStaffEmail, parseEmailList, providerStaffAdminMessage, validationMessages, type ErrorCode } from '@quire/core';
import { GraphqlError, hasErrorCode } from '../../../lib/api/index.js';

/** The addresses typed into 'Add admins', checked with the core rules; error is null when they may be sent. */
export interface AdminEmailsCheck {
  emails: string[];
  error: string | null;
}

/**
 * One or more addresses, separated by new lines, commas or semicolons (trimmed, lower-cased). Empty:
 * 'Please enter your email address'; a bad one: 'Invalid email address'; one of the provider's own
 * domain (case-insensitive): '{product} users can't be added as admins' (spec §5).
 */
export function checkAdminEmails(text: string, rules: { providerEmailDomain: string; productName: string }): AdminEmailsCheck {
  const { valid, invalid } = parseEmailList(text);
  if (valid.length === 0 && invalid.length === 0) return { emails: [], error: validationMessages.emailRequired };
  if (invalid.length) return { emails: valid, error: `${validationMessages.emailInvalid}: ${invalid.join(', ')}` };
  if (valid.some((email) => isProviderStaffEmail(email, rules.providerEmailDomain))) {
    return { emails: valid, error: providerStaffAdminMessage(rules.productName) };
  }
  return { emails: valid, error: null };
}

/** The server refused the addresses themselves (empty, invalid, provider staff): its message belongs beside the field. */
const FIELD_CODES: ErrorCode[] = ['email_required', 'invalid_email', 'provider_email', 'too_many_emails'];

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
