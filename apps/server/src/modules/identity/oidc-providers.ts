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

/** Which providers are configured (issuer, client id and secret all set). */
export function configuredProviders(env: Env): Record<OidcProviderId, boolean> {
  return {
    google: Boolean(env.GOOGLE_OIDC_ISSUER && env.GOOGLE_OIDC_CLIENT_ID && env.GOOGLE_OIDC_CLIENT_SECRET),
    office365: Boolean(env.OFFICE365_OIDC_ISSUER && env.OFFICE365_OIDC_CLIENT_ID && env.OFFICE365_OIDC_CLIENT_SECRET),
  };
}

const discovery = (issuer: string) => `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;

/** genericOAuth entries for the configured OpenID Connect providers (DESIGN.md: discoveryUrl, not fixed endpoints). */
export function oidcProviderConfigs(env: Env): GenericOAuthConfig[] {
  const configured = configuredProviders(env);
  const configs: GenericOAuthConfig[] = [];
  if (configured.google) {
    configs.push({
      providerId: 'google',
      name: 'Google',
      discoveryUrl: discovery(env.GOOGLE_OIDC_ISSUER ?? ''),
      clientId: env.GOOGLE_OIDC_CLIENT_ID ?? '',
      clientSecret: env.GOOGLE_OIDC_CLIENT_SECRET,
      scopes: ['openid', 'email', 'profile'],
      pkce: true,
      mapProfileToUser: noteProviderEmail,
    });
  }
  if (configured.office365) {
    configs.push({
      providerId: 'office365',
      name: 'Office 365',
      discoveryUrl: discovery(env.OFFICE365_OIDC_ISSUER ?? ''),
      clientId: env.OFFICE365_OIDC_CLIENT_ID ?? '',
      clientSecret: env.OFFICE365_OIDC_CLIENT_SECRET,
      scopes: ['openid', 'email', 'profile', OFFICE365_SCOPE],
      // Spec §7: the redirect URI is {host}/sign-in/office-365; that console page forwards to our callback.
      redirectURI: `${publicUrl(env)}/sign-in/office-365`,
      pkce: true,
      mapProfileToUser: noteProviderEmail,
    });
  }
  return configs;
}

/** The spec's provider names (provider lookup, 401 providerIds) for Better Auth's provider ids. */
export function specProviderName(providerId: string): string {
  if (providerId === 'credential') return 'password';
  if (providerId === 'google') return 'google.com';
  return providerId;
}
