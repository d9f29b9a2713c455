import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createVault } from './lti-crypto.js';
import { userKindFromRoles } from './lti-roles.js';
import { baseStringUri, percentEncode } from './oauth-signature.js';

describe('roles from a launch', () => {
  it.each([
    ['Instructor', 'teacher'],
    ['instructor', 'teacher'],
    ['Learner', 'student'],
    ['urn:lti:role:ims/lis/Instructor', 'teacher'],
    ['urn:lti:role:ims/lis/TeachingAssistant/TeachingAssistantSection', 'teacher'],
    ['urn:lti:instrole:ims/lis/Faculty', 'teacher'],
    ['urn:lti:role:ims/lis/Learner/NonCreditLearner', 'student'],
    ['http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor', 'teacher'],
    ['Learner,urn:lti:role:ims/lis/Instructor', 'teacher'],
    [' Learner , Mentor ', 'student'],
    ['urn:lti:role:ims/lis/Mentor', 'student'],
    ['SomethingNew', 'student'],
    ['', 'student'],
    [undefined, 'student'],
  ])('%s → %s', (roles, kind) => {
    expect(userKindFromRoles(roles)).toBe(kind);
  });
});

describe('the secret vault', () => {
  const binding = { organisationId: 'org-1', consumerKey: 'key-1' };

  it('round-trips, never stores the plaintext, and refuses another key or another row', () => {
    const vault = createVault(randomBytes(32), 'generated-memory');
    const stored = vault.encrypt('s3cret', binding);
    expect(stored).not.toContain('s3cret');
    expect(vault.decrypt(stored, binding)).toBe('s3cret');
    expect(vault.encrypt('s3cret', binding)).not.toBe(stored);
    expect(vault.decrypt(stored, { ...binding, organisationId: 'org-2' })).toBeNull();
    expect(createVault(randomBytes(32), 'generated-memory').decrypt(stored, binding)).toBeNull();
  });
});

describe('OAuth 1.0a base strings', () => {
  it('percent-encodes as RFC 3986 and normalises the URL', () => {
    expect(percentEncode("a b!*'()~")).toBe('a%20b%21%2A%27%28%29~');
    expect(baseStringUri('HTTPS://Example.ORG:443/lti/launch?x=1')).toBe('https://example.org/lti/launch');
    expect(baseStringUri('http://example.org:8080/lti/launch')).toBe('http://example.org:8080/lti/launch');
  });
});
