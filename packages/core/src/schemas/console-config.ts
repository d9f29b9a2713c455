import { z } from 'zod';

/**
 * The brand and outside links the server is configured with (DESIGN.md "Brand and outside links are
 * configuration"), served by GET {api}/console-config. One schema for the server's answer and the
 * console's parsing, so the two cannot drift.
 */
export const consoleConfigSchema = z.object({
  /** "{product}" in the spec's texts. */
  productName: z.string().min(1),
  /** The console's own public origin ({host}). */
  publicUrl: z.string(),
  /** Provider staff are recognised by this e-mail domain. */
  providerEmailDomain: z.string(),
  /** Address of the "Contact us for a quote" mailto. */
  salesEmail: z.string(),
  /** "For Admins" help link in the navigation. */
  helpUrl: z.string(),
  /** Teacher Resources promo cards: community group, staff-training template, getting-started guide. */
  communityUrl: z.string(),
  staffTrainingUrl: z.string(),
  gettingStartedUrl: z.string(),
  /** The terms-of-service and privacy links of the sign-in area. */
  termsUrl: z.string(),
  privacyUrl: z.string(),
  /** The product's app, opened by a library visit. */
  appUrl: z.string(),
  /** The reader site of the featured books. */
  readerUrl: z.string(),
  /** The fixed library the featured books open in. */
  readerLibraryId: z.string(),
  /** E-mail domains that must sign in with their district SSO. */
  districtSsoDomains: z.array(z.string()),
  /** E-mail suffixes of city governments, refused for e-mail/password sign-in. */
  cityGovernmentSuffixes: z.array(z.string()),
  /** The chat-support provider's id; null when chat support is off (CHAT_SUPPORT_PROVIDER=none). */
  chatSupportProvider: z.string().nullable(),
  /** The provider's workspace id (Intercom's app_id); null when chat support is off. */
  chatSupportAppId: z.string().nullable().default(null),
  /** Where the widget script loads from; null when chat support is off. */
  chatSupportScriptUrl: z.string().nullable().default(null),
});

export type ConsoleConfig = z.infer<typeof consoleConfigSchema>;
