import { describe, expect, it } from 'vitest';
import {
  UNLIMITED,
  allocationShareText,
  available,
  checkAssignable,
  isUnlimitedBooksLicense,
  libraryQuotaFromColumn,
  licensesNeeded,
  totalBooks,
} from './licenses.js';

describe('available = quantity − allocated', () => {
  it.each([
    [10, 0, 10],
    [10, 4, 6],
    [10, 10, 0],
    [5, 7, -2],
  ])('%i − %i = %i', (quantity, allocated, expected) => {
    expect(available({ quantity, allocated })).toBe(expected);
  });
});

describe('totalBooks', () => {
  it.each([
    [40, 5, 200],
    [40, 1, 40],
    [1000, UNLIMITED, 1000],
    [40, UNLIMITED, 40],
    [40, 0, 'None'],
    [0, 5, 'None'],
    [0, UNLIMITED, 'None'],
    [40, null, 'None'],
    [40, undefined, 'None'],
  ] as const)('bookQuota %s × libraryQuota %s → %s', (bookQuota, libraryQuota, expected) => {
    expect(totalBooks({ bookQuota, libraryQuota })).toBe(expected);
  });
});

it('bookQuota 1000 is the unlimited-books licence', () => {
  expect(isUnlimitedBooksLicense({ bookQuota: 1000 })).toBe(true);
  expect(isUnlimitedBooksLicense({ bookQuota: 40 })).toBe(false);
});

it('maps the NULL library quota column to UNLIMITED', () => {
  expect(libraryQuotaFromColumn(null)).toBe('UNLIMITED');
  expect(libraryQuotaFromColumn(3)).toBe(3);
});

describe('checkAssignable', () => {
  const license = { quantity: 10, allocated: 8, bookQuota: 40 };
  const message = (n: number, k: number) =>
    `Not enough ${n} book licenses available. You have ${k} available, please purchase more licenses or select fewer teachers to assign.`;
  it.each([
    ['fits exactly', ['a', 'b'], [], null],
    ['one too many', ['a', 'b', 'c'], [], message(40, 2)],
    ['teachers already on the licence are not counted', ['a', 'b', 'c', 'd'], ['c', 'd'], null],
    ['duplicates count once', ['a', 'a', 'b', 'b'], [], null],
    ['nothing selected', [], [], null],
  ])('%s', (_name, selected, already, expected) => {
    expect(checkAssignable({ license, selectedMemberIds: selected, membersAlreadyOnLicense: already })).toBe(expected);
  });
  it('uses the book quota as n and reports 0 when over-allocated', () => {
    expect(
      checkAssignable({
        license: { quantity: 3, allocated: 5, bookQuota: 1000 },
        selectedMemberIds: ['x'],
        membersAlreadyOnLicense: [],
      }),
    ).toBe(message(1000, 0));
  });
  it('counts only new members', () => {
    expect(licensesNeeded({ selectedMemberIds: new Set(['a', 'b', 'c']), membersAlreadyOnLicense: new Set(['b']) })).toBe(2);
  });
  it("says who allocates more for a school's share of a district licence", () => {
    expect(
      checkAssignable({
        license: { quantity: 2, allocated: 2, bookQuota: 40, allocatedBy: { organisationName: 'Riverside Unified School District' } },
        selectedMemberIds: ['x'],
        membersAlreadyOnLicense: [],
      }),
    ).toBe(
      'Not enough 40 book licenses allocated by Riverside Unified School District. You have 0 available, please ask Riverside Unified School District to allocate more or select fewer teachers to assign.',
    );
    expect(allocationShareText({ assigned: 40, seats: 50, districtName: 'Riverside Unified School District' })).toBe('40 of 50 allocated by Riverside Unified School District used');
  });
});
