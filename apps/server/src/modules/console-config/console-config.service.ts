import type { ConsoleConfig } from '@quire/core';
import { listSetting, publicUrl, type Env } from '../../env.js';
import { chatSupportProvider, chatSupportScriptUrl } from '../chat-support/chat-support.config.js';

/** What the console needs to know about its brand and outside links; all of it is configuration (see env.ts). */
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
    chatSupportProvider: chatSupportProvider(env),
    chatSupportAppId: chatSupportProvider(env) ? (env.CHAT_SUPPORT_APP_ID ?? null) : null,
    chatSupportScriptUrl: chatSupportScriptUrl(env),
  };
}
