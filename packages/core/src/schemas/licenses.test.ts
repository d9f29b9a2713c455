import { describe, expect, it } from 'vitest';
import { libraryQuotaSchema, organisationLicenseSchema } from './licenses.js';

const license = { id: 'l1', name: 'Premium', allocated: 3, quantity: 10, bookQuota: 1000, libraryQuota: 5, applyToAll: false };

describe('libraryQuotaSchema', () => {
  it.each([0, 5, 'UNLIMITED'])('takes %j', (value) => {
    expect(libraryQuotaSchema.parse(value)).toBe(value);
  });
  it.each(['unlimited', null, '5'])('refuses %j', (value) => {
    expect(libraryQuotaSchema.safeParse(value).success).toBe(false);
  });
});

describe('organisationLicenseSchema', () => {
  it("drops the server's available, which the console works out", () => {
    expect(organisationLicenseSchema.parse({ ...license, available: 7 })).toEqual(license);
  });
  it('refuses a licence without its counts', () => {
    const { allocated: _allocated, ...withoutAllocated } = license;
    expect(organisationLicenseSchema.safeParse(withoutAllocated).success).toBe(false);
  });
});
