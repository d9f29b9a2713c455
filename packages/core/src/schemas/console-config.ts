import * as z from 'zod/mini';

/**
 * The brand and outside links the server is configured with (DESIGN.md "Brand and outside links are
 * configuration"), served by GET {api}/console-config. One schema for the server's answer and the
 * console's parsing, so the two cannot drift. Written with zod/mini, as are the other answers /sign-in needs before
 * it shows anything (identity-session.ts, sign-in-methods.ts): the console parses them in its first download, which
 * carries zod's small core but not its classic build (docs/performance-log.md, "First load").
 */
export const consoleConfigSchema = z.object({
  /** "{product}" in the spec's texts. */
  productName: z.string().check(z.minLength(1)),
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
  chatSupportProvider: z.nullable(z.string()),
  /** The provider's workspace id (Intercom's app_id); null when chat support is off. */
  chatSupportAppId: z._default(z.nullable(z.string()), null),
  /** Where the widget script loads from; null when chat support is off. */
  chatSupportScriptUrl: z._default(z.nullable(z.string()), null),
});

export type ConsoleConfig = z.infer<typeof consoleConfigSchema>;
