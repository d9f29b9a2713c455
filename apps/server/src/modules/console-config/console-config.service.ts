import { z } from 'zod';
import { listSetting, publicUrl, type Env } from '../../env.js';

/** What the console needs to know about its brand and outside links; all of it is configuration (see env.ts). */
export const consoleConfigSchema = z.object({
  productName: z.string(),
  publicUrl: z.string(),
  providerEmailDomain: z.string(),
  salesEmail: z.string(),
  helpUrl: z.string(),
  communityUrl: z.string(),
  staffTrainingUrl: z.string(),
  gettingStartedUrl: z.string(),
  termsUrl: z.string(),
  privacyUrl: z.string(),
  appUrl: z.string(),
  readerUrl: z.string(),
  readerLibraryId: z.string(),
  districtSsoDomains: z.array(z.string()),
  cityGovernmentSuffixes: z.array(z.string()),
  /** null when the chat-support widget is off (CHAT_SUPPORT_PROVIDER=none). */
  chatSupportProvider: z.string().nullable(),
});

export type ConsoleConfig = z.infer<typeof consoleConfigSchema>;

export function consoleConfig(env: Env): ConsoleConfig {
  return {
    productName: env.PRODUCT_NAME,
    publicUrl: publicUrl(env),
    providerEmailDomain: env.PROVIDER_EMAIL_DOMAIN.toLowerCase(),
    salesEmail: env.SALES_EMAIL,
    helpUrl: env.HELP_URL,
    communityUrl: env.COMMUNITY_URL,
    staffTrainingUrl: env.STAFF_TRAINING_URL,
    gettingStartedUrl: env.GETTING_STARTED_URL,
    termsUrl: env.TERMS_URL,
    privacyUrl: env.PRIVACY_URL,
    appUrl: env.APP_URL,
    readerUrl: env.READER_URL,
    readerLibraryId: env.READER_LIBRARY_ID,
    districtSsoDomains: listSetting(env.DISTRICT_SSO_DOMAINS),
    cityGovernmentSuffixes: listSetting(env.CITY_GOVERNMENT_SUFFIXES),
    chatSupportProvider: env.CHAT_SUPPORT_PROVIDER.toLowerCase() === 'none' ? null : env.CHAT_SUPPORT_PROVIDER,
  };
}
