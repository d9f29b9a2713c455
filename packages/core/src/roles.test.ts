import { describe, expect, it } from 'vitest';
import {
  LIBRARY_FILTER_ALL,
  LIBRARY_FILTER_ARCHIVED,
  ROLE_LIBRARY_MANAGER,
  ROLE_PENDING_TEACHER,
  ROLE_TEACHER,
  libraryRoleLabel,
  libraryVisitAction,
  toggledLibraryManagerRole,
} from './roles.js';

it('has the numeric roles and filters of the spec', () => {
  expect([ROLE_PENDING_TEACHER, ROLE_LIBRARY_MANAGER, ROLE_TEACHER]).toEqual([-600, 400, 600]);
  expect([LIBRARY_FILTER_ALL, LIBRARY_FILTER_ARCHIVED]).toEqual([0, 1]);
});

it.each([
  [400, 600],
  [600, 400],
])('toggling library manager from %i gives %i', (from, to) => {
  expect(toggledLibraryManagerRole(from)).toBe(to);
});

describe('libraryRoleLabel', () => {
  it.each([
    [100, 'Owner'],
    [500, 'Co-Teacher'],
    [600, 'Teacher'],
    [800, 'Student'],
    [900, 'Read-Only'],
    [700, 'Student'],
  ])('%i → %s', (role, label) => {
    expect(libraryRoleLabel(role)).toBe(label);
  });
});

describe('libraryVisitAction', () => {
  it.each([
    [100, false, 'visit'],
    [500, false, 'visit'],
    [600, false, 'visit'],
    [800, false, 'disabled'],
    [900, false, 'hidden'],
    [100, true, 'private'],
  ] as const)('role %i private %s → %s', (role, isPrivate, expected) => {
    expect(libraryVisitAction({ role, isPrivate })).toBe(expected);
  });
});
