import { describe, expect, it } from 'vitest';
import { authMessages, providerStaffAdminMessage, validationMessages } from '../messages.js';
import { adminEmailsSchema } from './admins.js';

const rules = { providerEmailDomain: 'quire.app', productName: 'Quire', districtSsoDomains: ['schools.district.org', 'students.district.org'] };
const refusal = (emails: string[]) => {
  const result = adminEmailsSchema(rules).safeParse(emails);
  return result.success ? null : { message: result.error.issues[0]?.message, params: (result.error.issues[0] as { params?: unknown }).params };
};

describe('adminEmailsSchema (spec §5, Add admins)', () => {
  it('takes addresses trimmed, lower-cased and once each', () => {
    expect(adminEmailsSchema(rules).parse([' A@School.org ', 'a@school.org', '', 'b@school.org'])).toEqual(['a@school.org', 'b@school.org']);
    expect(adminEmailsSchema(rules).parse(['z@notquire.app', 'y@district.org'])).toEqual(['z@notquire.app', 'y@district.org']);
  });

  it.each([
    [[' '], validationMessages.emailRequired, { code: 'email_required', emails: [] }],
    [['ok@school.org', 'nope'], validationMessages.emailInvalid, { code: 'invalid_email', emails: ['nope'] }],
    [['Someone@QUIRE.App'], providerStaffAdminMessage('Quire'), { code: 'provider_email', emails: ['someone@quire.app'] }],
    [['x@sub.quire.app'], providerStaffAdminMessage('Quire'), { code: 'provider_email', emails: ['x@sub.quire.app'] }],
    [['t@Schools.District.org'], authMessages.districtSso, { code: 'district_sso', emails: ['t@schools.district.org'] }],
    [['u@east.students.district.org'], authMessages.districtSso, { code: 'district_sso', emails: ['u@east.students.district.org'] }],
  ])('refuses %j', (emails, message, params) => {
    expect(refusal(emails)).toEqual({ message, params });
  });
});
