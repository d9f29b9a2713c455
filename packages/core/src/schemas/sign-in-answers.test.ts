import { describe, expect, it } from 'vitest';
import { consoleConfigSchema } from './console-config.js';
import { identitySessionSchema } from './identity-session.js';
import { signInMethodsSchema } from './sign-in-methods.js';

/** The answers /sign-in parses in the first download (zod/mini): what they accept and refuse. */
const config = {
  productName: 'Quire',
  publicUrl: 'https://console.quire.app',
  providerEmailDomain: 'quire.app',
  salesEmail: 'sales@quire.app',
  helpUrl: 'https://help.quire.app/admins',
  communityUrl: 'https://community.quire.app',
  staffTrainingUrl: 'https://help.quire.app/staff-training',
  gettingStartedUrl: 'https://help.quire.app/getting-started',
  termsUrl: 'https://quire.app/terms',
  privacyUrl: 'https://quire.app/privacy',
  appUrl: 'https://app.quire.app',
  readerUrl: 'https://read.quire.app',
  readerLibraryId: 'featured',
  districtSsoDomains: ['district.example.org'],
  cityGovernmentSuffixes: ['.cityofexample.gov'],
  chatSupportProvider: null,
};
const user = { id: 'u1', email: 'ada@school.test', name: 'Ada', image: null, emailVerified: true };

describe('consoleConfigSchema', () => {
  it('takes the configuration, the chat-support fields defaulting to null', () => {
    expect(consoleConfigSchema.parse(config)).toEqual({ ...config, chatSupportAppId: null, chatSupportScriptUrl: null });
  });

  it.each([
    ['an empty product name', { ...config, productName: '' }],
    ['a missing link', { ...config, termsUrl: undefined }],
    ['a list that is not one', { ...config, districtSsoDomains: 'district.example.org' }],
    ['a provider that is not a string or null', { ...config, chatSupportProvider: 3 }],
  ])('refuses %s', (_name, answer) => {
    expect(consoleConfigSchema.safeParse(answer).success).toBe(false);
  });
});

describe('identitySessionSchema', () => {
  it('takes no session, or a user, keeping the provider’s other fields', () => {
    expect(identitySessionSchema.parse(null)).toBeNull();
    expect(identitySessionSchema.parse({ session: { id: 's1' }, user: { ...user, role: 'user' } })).toEqual({ session: { id: 's1' }, user: { ...user, role: 'user' } });
    expect(identitySessionSchema.parse({ user: { id: 'u1', email: 'ada@school.test', emailVerified: false } })?.user.name).toBeUndefined();
  });

  it.each([
    ['a user without emailVerified', { user: { id: 'u1', email: 'ada@school.test' } }],
    ['a user whose id is not a string', { user: { ...user, id: 1 } }],
    ['an answer without a user', { session: { id: 's1' } }],
    ['nothing at all', undefined],
  ])('refuses %s', (_name, answer) => {
    expect(identitySessionSchema.safeParse(answer).success).toBe(false);
  });
});

describe('signInMethodsSchema', () => {
  it('takes the three flags and refuses an answer missing one or not a boolean', () => {
    expect(signInMethodsSchema.parse({ google: false, office365: true, email: true })).toEqual({ google: false, office365: true, email: true });
    expect(signInMethodsSchema.safeParse({ google: false, office365: true }).success).toBe(false);
    expect(signInMethodsSchema.safeParse({ google: 'false', office365: true, email: true }).success).toBe(false);
  });
});
