import { describe, expect, it } from 'vitest';
import { appForFile } from './file-app.js';
import { orgWithAdmin } from './teachers.helpers.js';

// The provider-staff rule of 2-step verification is on by default (`npm start`, production): the Teachers page reads
// its session in its own prepared statement, which must then take the rule's e-mail pattern as part of its text.
const t = appForFile({ PROVIDER_STAFF_TWO_STEP: 'required' });

describe('the Teachers page with the provider-staff 2-step rule on', () => {
  it('lists the teachers for an admin who is not provider staff', async () => {
    const a = await orgWithAdmin(t.app);
    const res = await t.app.inject({ method: 'GET', url: `/payments/v1/admin/organisations/${a.orgId}/members/teachers?page=1&pageSize=50`, headers: a.headers });
    expect(res.statusCode).toBe(200);
  });
});
