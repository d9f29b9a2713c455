import { AsyncLocalStorage } from 'node:async_hooks';
import type { GenericOAuthConfig } from 'better-auth/plugins';
import { OFFICE365_SCOPE } from '@quire/core';
import { publicUrl, type Env } from '../../env.js';

export type OidcProviderId = 'google' | 'office365';

/**
 * Per-request notes of the identity handler: the e-mail a provider sign-in asserted, so a refusal
 * (account_not_linked) can tell the console which providers that e-mail belongs to.
 */
export interface IdentityRequestNotes {
  providerEmail?: string;
}
export const identityRequestNotes = new AsyncLocalStorage<IdentityRequestNotes>();

function noteProviderEmail(profile: Record<string, unknown>): Record<string, unknown> {
  // Microsoft may leave `email` out and name the address in preferred_username.
  const email = [profile.email, profile.preferred_username].find((v): v is string => typeof v === 'string' && v.includes('@'));
  const notes = identityRequestNotes.getStore();
  if (notes && email) notes.providerEmail = email.toLowerCase();
  return email ? { email: email.toLowerCase() } : {};
}

/** Each provider's settings, as the environment names them. */
function providerSettings(env: Env): Record<OidcProviderId, { issuer?: string; clientId?: string; clientSecret?: string }> {
  return {
    google: { issuer: env.GOOGLE_OIDC_ISSUER, clientId: env.GOOGLE_OIDC_CLIENT_ID, clientSecret: env.GOOGLE_OIDC_CLIENT_SECRET },
    office365: { issuer: env.OFFICE365_OIDC_ISSUER, clientId: env.OFFICE365_OIDC_CLIENT_ID, clientSecret: env.OFFICE365_OIDC_CLIENT_SECRET },
  };
}

/** Which providers are configured (issuer, client id and secret all set). */
export function configuredProviders(env: Env): Record<OidcProviderId, boolean> {
  const settings = providerSettings(env);
  const configured = (id: OidcProviderId) => Boolean(settings[id].issuer && settings[id].clientId && settings[id].clientSecret);
  return { google: configured('google'), office365: configured('office365') };
}

const discovery = (issuer: string) => `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;

/** genericOAuth entries for the configured OpenID Connect providers (DESIGN.md: discoveryUrl, not fixed endpoints). */
export function oidcProviderConfigs(env: Env): GenericOAuthConfig[] {
  const configured = configuredProviders(env);
  const settings = providerSettings(env);
  const own: Record<OidcProviderId, Pick<GenericOAuthConfig, 'name' | 'scopes' | 'redirectURI'>> = {
    google: { name: 'Google', scopes: ['openid', 'email', 'profile'] },
    office365: {
      name: 'Office 365',
      scopes: ['openid', 'email', 'profile', OFFICE365_SCOPE],
      // Spec §7: the redirect URI is {host}/sign-in/office-365; that console page forwards to our callback.
      redirectURI: `${publicUrl(env)}/sign-in/office-365`,
    },
  };
  return (['google', 'office365'] as const)
    .filter((providerId) => configured[providerId])
    .map((providerId) => ({
      providerId,
      ...own[providerId],
      discoveryUrl: discovery(settings[providerId].issuer ?? ''),
      clientId: settings[providerId].clientId ?? '',
      clientSecret: settings[providerId].clientSecret,
      pkce: true,
      mapProfileToUser: noteProviderEmail,
    }));
}

/** The spec's provider names (provider lookup, 401 providerIds) for Better Auth's provider ids. */
export function specProviderName(providerId: string): string {
  if (providerId === 'credential') return 'password';
  if (providerId === 'google') return 'google.com';
  return providerId;
}
