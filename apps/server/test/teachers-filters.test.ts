import { describe, expect, it } from 'vitest';
import { buildLicense, buildTeacher } from './factories.js';
import { appForFile } from './file-app.js';
import { orgPath, orgWithAdmin } from './teachers.helpers.js';

// The list filters on the server by signed-up, licence and certification, so the
// transfer picker finds signed-up teachers among many nameless pending ones, and "who has not signed up yet"
// is one filter.

const t = appForFile();

async function school() {
  const admin = await orgWithAdmin(t.app);
  const license = await buildLicense(t.app.db, { organisationId: admin.orgId });
  // 25 nameless pending teachers sort first by name; two signed-up ones come after them.
  for (let i = 0; i < 25; i++) await buildTeacher(t.app.db, { organisationId: admin.orgId, email: `p${i}@s.org`, display_name: '', pending: true, role: -600 });
  const zoe = await buildTeacher(t.app.db, { organisationId: admin.orgId, email: 'zoe@s.org', display_name: 'Zoe Adams', license_id: license.id, calevel1_at: new Date() });
  const yan = await buildTeacher(t.app.db, { organisationId: admin.orgId, email: 'yan@s.org', display_name: 'Yan Bo', certifying: 0.5 });
  const list = async (query: string) => {
    const res = await t.app.inject({ url: `${orgPath(admin.orgId)}/members/teachers?${query}`, headers: admin.headers });
    expect(res.statusCode).toBe(200);
    return res.json() as { members: Array<{ email: string }>; total: number };
  };
  return { ...admin, license, zoe, yan, list };
}

describe('GET …/members/teachers filters', () => {
  it('signedUp=yes finds the signed-up teachers behind a page of pending ones; signedUp=no the others', async () => {
    const s = await school();
    const picker = await s.list('sort=name&dir=asc&page=1&pageSize=20&signedUp=yes');
    expect(picker.members.map((m) => m.email)).toEqual(['yan@s.org', 'zoe@s.org']);
    expect(picker.total).toBe(2);
    expect((await s.list('page=1&pageSize=10&signedUp=no')).total).toBe(25);
  });

  it('filters by licence (an id or none) and by certification', async () => {
    const s = await school();
    expect((await s.list(`license=${s.license.id}`)).members.map((m) => m.email)).toEqual(['zoe@s.org']);
    expect((await s.list('license=none&page=1&pageSize=10')).total).toBe(26);
    expect((await s.list('certification=complete')).members.map((m) => m.email)).toEqual(['zoe@s.org']);
    expect((await s.list('certification=in-progress')).members.map((m) => m.email)).toEqual(['yan@s.org']);
    expect((await s.list('certification=none&page=1&pageSize=10')).total).toBe(25);
    const bad = await t.app.inject({ url: `${orgPath(s.orgId)}/members/teachers?signedUp=maybe`, headers: s.headers });
    expect(bad.statusCode).toBe(400);
  });
});
