import { describe, expect, it } from 'vitest';
import { signInProviderName } from './sign-in-providers.js';

describe('signInProviderName', () => {
  it.each([
    ['google', 'Google'],
    ['office365', 'Office 365'],
    ['password', 'Email'],
    ['clever', 'Clever'],
    ['schoology', 'schoology'],
  ])('%s → %s', (id, name) => expect(signInProviderName(id)).toBe(name));
});
