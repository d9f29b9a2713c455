import { describe, expect, it } from 'vitest';
import { validateEmail } from '../email.js';
import { emailSchema } from './common.js';

describe('emailSchema agrees with validateEmail', () => {
  it.each(['', '  ', 'nope', 'a@b', 'Teacher@School.org ', "o'brien@school.ie", 'a..b@school.org', 'lti-0123@lti.invalid', 'x@example.INVALID'])('%j', (value) => {
    const parsed = emailSchema.safeParse(value);
    expect(parsed.error?.issues[0]?.message ?? null).toBe(validateEmail(value));
  });
  it('normalises the address', () => {
    expect(emailSchema.parse('  Teacher@School.ORG ')).toBe('teacher@school.org');
  });
});
