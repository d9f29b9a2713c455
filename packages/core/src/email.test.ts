import { describe, expect, it } from 'vitest';
import {
  canImport,
  invalidEmailsText,
  isCityGovernmentEmail,
  isDistrictSsoEmail,
  isProviderStaffEmail,
  isValidEmail,
  normaliseEmail,
  parseEmailList,
  readyToImportText,
  signInDomainError,
  validateEmail,
  validateName,
  validatePassword,
} from './email.js';

describe('isValidEmail', () => {
  it.each([
    ['teacher@school.org', true],
    ['first.last+tag@mail.school.co.uk', true],
    ["o'brien@school.ie", true],
    ['  padded@school.org  ', true],
    ['UPPER@SCHOOL.ORG', true],
    ['plainaddress', false],
    ['@school.org', false],
    ['teacher@', false],
    ['teacher@school', false],
    ['teacher@school.o', false],
    ['two@@school.org', false],
    ['te acher@school.org', false],
    ['.dot@school.org', false],
    ['dot.@school.org', false],
    ['dou..ble@school.org', false],
    ['', false],
  ])('%j → %s', (value, expected) => {
    expect(isValidEmail(value)).toBe(expected);
  });
});

describe('validateEmail', () => {
  it.each([
    ['', 'Please enter your email address'],
    ['   ', 'Please enter your email address'],
    [null, 'Please enter your email address'],
    ['nope', 'Invalid email address'],
    ['teacher@school', 'Invalid email address'],
    ['teacher@school.org', null],
  ])('%j → %j', (value, expected) => {
    expect(validateEmail(value)).toBe(expected);
  });
});

describe('validatePassword', () => {
  it.each([
    ['', 'Please enter a password'],
    [undefined, 'Please enter a password'],
    ['12345', 'Password must be at least 6 characters'],
    ['123456', null],
    ['a long passphrase', null],
  ])('%j → %j', (value, expected) => {
    expect(validatePassword(value)).toBe(expected);
  });
});

describe('validateName', () => {
  it.each([
    ['', 'Please enter your name'],
    ['  ', 'Please enter your name'],
    ['Ada', null],
  ])('%j → %j', (value, expected) => {
    expect(validateName(value)).toBe(expected);
  });
});

it('normaliseEmail trims and lower-cases', () => {
  expect(normaliseEmail('  Ada.Lovelace@School.ORG \n')).toBe('ada.lovelace@school.org');
});

describe('isProviderStaffEmail (case-insensitive domain)', () => {
  it.each([
    ['staff@quire.app', 'quire.app', true],
    ['Staff@QUIRE.App', 'quire.app', true],
    ['staff@quire.app', 'QUIRE.APP', true],
    ['staff@notquire.app', 'quire.app', false],
    ['staff@quire.app.evil.org', 'quire.app', false],
    ['quire.app@school.org', 'quire.app', false],
    ['staff@quire.app', '', false],
  ])('%s with %s → %s', (email, domain, expected) => {
    expect(isProviderStaffEmail(email, domain)).toBe(expected);
  });
});

describe('district SSO and city-government rules', () => {
  const district = ['schools.example-district.org', 'students.example-district.org'];
  const city = ['.cityofexample.gov'];
  it.each([
    ['teacher@schools.example-district.org', true],
    ['pupil@STUDENTS.example-district.org', true],
    ['teacher@east.schools.example-district.org', true],
    ['teacher@example-district.org', false],
    ['teacher@myschools.example-district.org', false],
  ])('district %s → %s', (email, expected) => {
    expect(isDistrictSsoEmail(email, district)).toBe(expected);
  });
  it.each([
    ['clerk@parks.cityofexample.gov', true],
    ['clerk@PARKS.CityOfExample.gov', true],
    ['clerk@cityofexample.gov.uk', false],
    ['clerk@school.org', false],
  ])('city %s → %s', (email, expected) => {
    expect(isCityGovernmentEmail(email, city)).toBe(expected);
  });
  it('signInDomainError gives the texts of §5', () => {
    const rules = { districtSsoDomains: district, cityGovernmentSuffixes: city };
    expect(signInDomainError('a@schools.example-district.org', rules)).toBe(
      'Please sign in using your district SSO such as Clever or Schoology',
    );
    expect(signInDomainError('a@hall.cityofexample.gov', rules)).toBe(
      'Your district prevents the use of email and password logins to the admin console, please use the preferred Single Sign On methods.',
    );
    expect(signInDomainError('a@school.org', rules)).toBeNull();
  });
});

describe('parseEmailList', () => {
  it.each([
    ['a@school.org\nb@school.org', ['a@school.org', 'b@school.org'], []],
    ['a@school.org, b@school.org;c@school.org', ['a@school.org', 'b@school.org', 'c@school.org'], []],
    ['  A@School.org  \r\n\n;,  ', ['a@school.org'], []],
    ['a@school.org\nA@SCHOOL.ORG\na@school.org', ['a@school.org'], []],
    ['a@school.org\nnot-an-email\nnot-an-email', ['a@school.org'], ['not-an-email']],
    ['', [], []],
  ])('%j', (text, valid, invalid) => {
    expect(parseEmailList(text)).toEqual({ valid, invalid });
  });
});

describe('import summary texts', () => {
  it.each([
    [0, '0 teachers are ready to import', '0 invalid email addresses'],
    [1, '1 teacher is ready to import', '1 invalid email address'],
    [2, '2 teachers are ready to import', '2 invalid email addresses'],
  ])('%i', (n, ready, invalid) => {
    expect(readyToImportText(n)).toBe(ready);
    expect(invalidEmailsText(n)).toBe(invalid);
  });
  it('enables import only when all are valid', () => {
    expect(canImport(parseEmailList('a@school.org\nb@school.org\nbad'))).toBe(false);
    expect(canImport(parseEmailList('a@school.org'))).toBe(true);
    expect(canImport(parseEmailList(' ; '))).toBe(false);
  });
});
