import { describe, expect, it } from 'vitest';
import { canTickLicense, grantInOrder, showSelectAll } from './import-licenses.js';

it.each([
  [5, 5, true],
  [6, 5, true],
  [4, 5, false],
  [3, 0, false],
])('showSelectAll(available %i, entries %i) → %s', (available, entries, expected) => {
  expect(showSelectAll(available, entries)).toBe(expected);
});

it.each([
  [2, 1, false, true],
  [2, 2, false, false],
  [2, 2, true, true],
  [0, 0, false, false],
])('canTickLicense(available %i, ticked %i, this ticked %s) → %s', (available, ticked, isTicked, expected) => {
  expect(canTickLicense(available, ticked, isTicked)).toBe(expected);
});

describe('grantInOrder', () => {
  it('grants each licence up to its available count, in list order', () => {
    const requests = [
      { email: 'a@s.org', licenseId: 'L1' },
      { email: 'b@s.org', licenseId: 'L2' },
      { email: 'c@s.org', licenseId: 'L1' },
      { email: 'd@s.org', licenseId: 'L1' },
      { email: 'e@s.org', licenseId: 'unknown' },
    ];
    const result = grantInOrder(requests, new Map([['L1', 2], ['L2', 0]]));
    expect(result.granted.map((r) => r.email)).toEqual(['a@s.org', 'c@s.org']);
    expect(result.notGranted.map((r) => r.email)).toEqual(['b@s.org', 'd@s.org', 'e@s.org']);
  });
});
