import { z } from 'zod';
import { emailDomain, isDistrictSsoEmail, isValidEmail, normaliseEmail } from '../email.js';
import { authMessages, providerStaffAdminMessage, validationMessages } from '../messages.js';

/** The Admin page of the organisation service (spec §3 Admin; docs/libraries-api.md, "Admins"). */

/** One admin: e-mail and organisation, plus what the server knows of them. */
const adminEntrySchema = z.object({
  email: z.string(),
  organisationId: z.string(),
  /** The table's Organization column. */
  organisationName: z.string(),
  /**
   * Listed at an organisation above this one (a district's admin on a school's page): an admin here through it, removed
   * only there. An entry of an organisation under this one (a school's admin on the district's page) has its
   * organisationId and is false.
   */
  inherited: z.boolean().optional(),
  /** Identity user, once they signed in. */
  userId: z.string().nullable(),
  /** When the admin is also a member (teacher) of the organisation. */
  memberId: z.string().nullable(),
  /** The member's name, else the user's name; null: show the e-mail. */
  displayName: z.string().nullable(),
  /** The signed-in user. */
  isYou: z.boolean(),
  /**
   * 2-step verification of the admin's account: 'passkey' (at least one passkey, with or without an authenticator
   * app), 'on' (an authenticator app only) or 'off' (also an admin who never signed in), so an organisation's
   * requirement can be checked at a glance.
   */
  twoStep: z.enum(['on', 'off', 'passkey']),
});
export type AdminEntry = z.infer<typeof adminEntrySchema>;

/** getAdmins(orgId, search, sort, dir, page, pageSize). */
export const adminPageSchema = z.object({
  admins: z.array(adminEntrySchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type AdminPage = z.infer<typeof adminPageSchema>;

/** importAdmins(orgId, emails): all or nothing. */
export const adminsImportedSchema = z.object({
  added: z.array(z.string()),
  /** Already admins: left unchanged. */
  existing: z.array(z.string()),
});
export type AdminsImported = z.infer<typeof adminsImportedSchema>;

/** deleteAdmins(orgId, emails): refused as a whole when no admin would remain. */
export const adminsRemovedSchema = z.object({ removed: z.array(z.string()) });
export type AdminsRemoved = z.infer<typeof adminsRemovedSchema>;

/** What 'Add admins' checks an address list against: the deployment's provider domain, product name and district domains. */
export interface AdminEmailRules {
  providerEmailDomain: string;
  productName: string;
  districtSsoDomains: readonly string[];
}

/** Why an 'Add admins' list is refused; the server answers with it as the error code. */
export type AdminEmailsRefusalCode = 'email_required' | 'invalid_email' | 'provider_email' | 'district_sso';

/** The provider's own domain or any subdomain of it (`x@sub.quire.app`), case-insensitive. */
function isProviderDomainEmail(email: string, providerDomain: string): boolean {
  const provider = providerDomain.trim().toLowerCase().replace(/^@/, '');
  const domain = emailDomain(email);
  return provider !== '' && (domain === provider || domain.endsWith(`.${provider}`));
}

/**
 * The addresses of 'Add admins' (importAdmins), for the console's dialog and the server alike (spec §5): trimmed,
 * lower-cased, blanks and repeats dropped. Refused, the whole list, with the spec's text and
 * `params: { code: AdminEmailsRefusalCode, emails }` (the addresses at fault): an empty list ('Please enter your
 * email address'), an invalid address ('Invalid email address'), an address of the provider's domain or a
 * subdomain of it ('{product} users can't be added as admins'), an address of a district-SSO domain or a
 * subdomain of it ('Please sign in using your district SSO such as Clever or Schoology').
 */
export function adminEmailsSchema(rules: AdminEmailRules) {
  return z.array(z.string()).transform((list, ctx) => {
    const emails = [...new Set(list.map(normaliseEmail).filter(Boolean))];
    const refuse = (code: AdminEmailsRefusalCode, message: string, at: string[]) => {
      ctx.addIssue({ code: 'custom', message, params: { code, emails: at } });
      return z.NEVER;
    };
    if (emails.length === 0) return refuse('email_required', validationMessages.emailRequired, []);
    const invalid = emails.filter((e) => !isValidEmail(e));
    if (invalid.length) return refuse('invalid_email', validationMessages.emailInvalid, invalid);
    const provider = emails.filter((e) => isProviderDomainEmail(e, rules.providerEmailDomain));
    if (provider.length) return refuse('provider_email', providerStaffAdminMessage(rules.productName), provider);
    const district = emails.filter((e) => isDistrictSsoEmail(e, rules.districtSsoDomains));
    if (district.length) return refuse('district_sso', authMessages.districtSso, district);
    return emails;
  });
}

/** The refusal of adminEmailsSchema: its code, the spec's text and the addresses at fault. */
export function adminEmailsRefusal(error: z.ZodError): { code: AdminEmailsRefusalCode; message: string; emails: string[] } {
  const issue = error.issues[0];
  const params = (issue as { params?: { code?: AdminEmailsRefusalCode; emails?: string[] } } | undefined)?.params;
  return { code: params?.code ?? 'invalid_email', message: issue?.message ?? validationMessages.emailInvalid, emails: params?.emails ?? [] };
}
