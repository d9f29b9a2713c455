import { describe, expect, it } from 'vitest';
import { linkSigner } from '../access/signed-links.js';
import { createUrlSigner } from './signed-url.js';

const key = linkSigner('a-test-secret-a-test-secret-a-test-secret', 'analytics-data');
const parse = (query: string) => Object.fromEntries(new URLSearchParams(query)) as { session?: string; expires?: string; signature?: string };
const codeOf = (check: () => void) => {
  try {
    check();
    return 'accepted';
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

describe('signed analytics links, verified again from the kept ones', () => {
  const now = Date.UTC(2026, 10, 26, 12);

  it('accepts a link as often as it is sent while it is valid', () => {
    const signer = createUrlSigner(key, 900);
    const query = parse(signer.sign('org-a', 'session-1', now).query);
    for (let i = 0; i < 3; i++) expect(codeOf(() => signer.verify('org-a', query, now + i * 1000))).toBe('accepted');
  });

  it('refuses a link once it has expired, though it was accepted before', () => {
    const signer = createUrlSigner(key, 900);
    const query = parse(signer.sign('org-a', 'session-1', now).query);
    expect(codeOf(() => signer.verify('org-a', query, now))).toBe('accepted');
    expect(codeOf(() => signer.verify('org-a', query, now + 900_000))).toBe('signed_url_expired');
  });

  it("refuses another organisation's request with a link accepted for the first", () => {
    const signer = createUrlSigner(key, 900);
    const query = parse(signer.sign('org-a', 'session-1', now).query);
    expect(codeOf(() => signer.verify('org-a', query, now))).toBe('accepted');
    expect(codeOf(() => signer.verify('org-b', query, now))).toBe('signed_url_invalid');
  });

  it('refuses a changed signature or expiry after the real link was accepted', () => {
    const signer = createUrlSigner(key, 900);
    const query = parse(signer.sign('org-a', 'session-1', now).query);
    expect(codeOf(() => signer.verify('org-a', query, now))).toBe('accepted');
    const signature = query.signature!;
    const changed = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    expect(codeOf(() => signer.verify('org-a', { ...query, signature: changed }, now))).toBe('signed_url_invalid');
    expect(codeOf(() => signer.verify('org-a', { ...query, expires: String(Number(query.expires) + 3600) }, now))).toBe('signed_url_invalid');
    expect(codeOf(() => signer.verify('org-a', { ...query, session: 'session-2' }, now))).toBe('signed_url_invalid');
    expect(signer.verify('org-a', query, now)).toBe('session-1');
  });

  it('still checks every link when more links arrive than it keeps', () => {
    const signer = createUrlSigner(key, 900, 2);
    const queries = ['org-a', 'org-b', 'org-c'].map((org) => [org, parse(signer.sign(org, 'session-1', now).query)] as const);
    for (const [org, query] of queries) expect(codeOf(() => signer.verify(org, query, now))).toBe('accepted');
    for (const [org, query] of queries) expect(codeOf(() => signer.verify(org, query, now))).toBe('accepted');
    expect(codeOf(() => signer.verify('org-a', queries[1]![1], now))).toBe('signed_url_invalid');
  });
});
