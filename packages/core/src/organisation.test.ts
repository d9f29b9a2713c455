import { describe, expect, it } from 'vitest';
import { organisationNameChange, validateOrganisationName } from './organisation.js';

describe('validateOrganisationName', () => {
  it.each([
    ['', 'Organisation name cannot be empty'],
    ['   ', 'Organisation name cannot be empty'],
    ['Springfield Elementary', null],
    ['x'.repeat(128), null],
    [`  ${'x'.repeat(128)}  `, null],
    ['x'.repeat(129), 'Organisation name must be at most 128 characters'],
  ])('%j → %j', (name, expected) => {
    expect(validateOrganisationName(name)).toBe(expected);
  });
});

describe('organisationNameChange (saved on blur if changed)', () => {
  it.each([
    ['Old', '  New  ', { action: 'save', name: 'New' }],
    ['Old', ' Old ', { action: 'none' }],
    ['Old', '   ', { action: 'restore', error: 'Organisation name cannot be empty' }],
  ])('%s → %j', (oldName, edited, expected) => {
    expect(organisationNameChange(oldName, edited)).toEqual(expected);
  });
});
