import type { Env } from '../../env.js';

/**
 * The sources Intercom's "Using Intercom with Content Security Policy" guide lists for source allowlisting
 * (US data region), per directive. Only these are added, and only when Intercom is the configured provider.
 */
const INTERCOM_SOURCES: Record<string, string[]> = {
  'script-src': ['https://app.intercom.io', 'https://widget.intercom.io', 'https://js.intercomcdn.com'],
  'connect-src': [
    'https://via.intercom.io', 'https://api.intercom.io', 'https://api-iam.intercom.io', 'https://api-ping.intercom.io',
    'https://nexus-websocket-a.intercom.io', 'wss://nexus-websocket-a.intercom.io', 'https://nexus-websocket-b.intercom.io',
    'wss://nexus-websocket-b.intercom.io', 'https://uploads.intercomcdn.com', 'https://uploads.intercomusercontent.com',
  ],
  'frame-src': ['https://intercom-sheets.com', 'https://www.intercom-reporting.com', 'https://www.youtube.com', 'https://player.vimeo.com', 'https://fast.wistia.net'],
  'font-src': ['https://js.intercomcdn.com', 'https://fonts.intercomcdn.com'],
  'form-action': ['https://intercom.help', 'https://api-iam.intercom.io'],
  'media-src': ['https://js.intercomcdn.com'],
  'img-src': [
    'https://js.intercomcdn.com', 'https://static.intercomassets.com', 'https://downloads.intercomcdn.com',
    'https://uploads.intercomusercontent.com', 'https://gifs.intercomcdn.com', 'https://video-messages.intercomcdn.com',
    'https://messenger-apps.intercom.io',
  ],
};

/** The configured provider, or null when chat support is off (CHAT_SUPPORT_PROVIDER=none, the default). */
export function chatSupportProvider(env: Pick<Env, 'CHAT_SUPPORT_PROVIDER'>): string | null {
  const provider = env.CHAT_SUPPORT_PROVIDER.trim().toLowerCase();
  return provider === 'none' ? null : provider;
}

/** Where the widget's script loads from: CHAT_SUPPORT_SCRIPT_URL, else the provider's own. */
export function chatSupportScriptUrl(env: Pick<Env, 'CHAT_SUPPORT_PROVIDER' | 'CHAT_SUPPORT_APP_ID' | 'CHAT_SUPPORT_SCRIPT_URL'>): string | null {
  const provider = chatSupportProvider(env);
  if (!provider || !env.CHAT_SUPPORT_APP_ID) return null;
  if (env.CHAT_SUPPORT_SCRIPT_URL) return env.CHAT_SUPPORT_SCRIPT_URL;
  return provider === 'intercom' ? `https://widget.intercom.io/widget/${encodeURIComponent(env.CHAT_SUPPORT_APP_ID)}` : null;
}

/**
 * Sources to add to each CSP directive for the configured provider, and nothing when chat support is off.
 * With CHAT_SUPPORT_SCRIPT_URL (a self-hosted copy, or the tests' stand-in) only that script's origin is
 * allowed, for its script and its calls.
 */
export function chatSupportCspSources(env: Pick<Env, 'CHAT_SUPPORT_PROVIDER' | 'CHAT_SUPPORT_APP_ID' | 'CHAT_SUPPORT_SCRIPT_URL'>): Record<string, string[]> {
  const script = chatSupportScriptUrl(env);
  if (!script) return {};
  if (env.CHAT_SUPPORT_SCRIPT_URL) {
    const origin = new URL(env.CHAT_SUPPORT_SCRIPT_URL).origin;
    return { 'script-src': [origin], 'connect-src': [origin] };
  }
  return chatSupportProvider(env) === 'intercom' ? INTERCOM_SOURCES : {};
}
