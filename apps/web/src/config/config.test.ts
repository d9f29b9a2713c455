import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from './env.js';
import { paths } from './paths.js';

describe('parseEnv', () => {
  it('defaults every service to its path on this origin', () => {
    expect(parseEnv({})).toEqual({
      auth: '/auth',
      api: '/api',
      payments: '/payments',
      analytics: '/analytics',
      assets: '/assets',
      graphql: '/graphql',
      rest: '/rest',
      identity: '/identity',
    });
  });

  it('accepts absolute URLs, drops trailing slashes and treats empty values as unset', () => {
    const env = parseEnv({ VITE_API_URL: 'https://api.example.org/v/', VITE_AUTH_URL: '' });
    expect(env.api).toBe('https://api.example.org/v');
    expect(env.auth).toBe('/auth');
  });

  it('refuses a value that is neither a path nor an http(s) URL, naming it', () => {
    expect(() => parseEnv({ VITE_PAYMENTS_URL: 'payments.example.org' })).toThrow(EnvError);
    expect(() => parseEnv({ VITE_PAYMENTS_URL: 'payments.example.org' })).toThrow(/VITE_PAYMENTS_URL/);
  });
});

describe('paths', () => {
  it('builds the routes of spec §2', () => {
    expect(paths.org.home('o1')).toBe('/o1');
    expect(paths.org.imageSearch('o1')).toBe('/o1/image-search');
    expect(paths.org.admin('o1')).toBe('/o1/admin');
    expect(paths.signIn.email('a+b@school.test')).toBe('/sign-in/email/a%2Bb%40school.test');
    expect(paths.signIn.email()).toBe('/sign-in/email');
    expect(paths.signIn.forgottenPassword('x@y.test')).toBe('/sign-in/forgotten-password/x%40y.test');
  });
});
