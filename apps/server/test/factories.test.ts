import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helper.js';
import { buildAdmin, buildLicense, buildTeacher } from './factories.js';

describe('test helper and factories', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t?.close());

  it('builds a migrated database the app answers from', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite' });
  });

  it('creates parents that are missing and keeps given ones', async () => {
    const teacher = await buildTeacher(t.app.db, { email: 'Mixed.Case@Example.org' });
    expect(teacher.email).toBe('mixed.case@example.org');
    const org = await t.app.db.selectFrom('organisations').selectAll().where('id', '=', teacher.organisation_id).executeTakeFirst();
    expect(org).toBeDefined();

    const license = await buildLicense(t.app.db, { organisationId: teacher.organisation_id, quantity: 3 });
    expect(license).toMatchObject({ organisation_id: teacher.organisation_id, quantity: 3 });

    const admin = await buildAdmin(t.app.db, { organisationId: teacher.organisation_id, email: 'Head@Example.org' });
    expect(admin).toMatchObject({ organisation_id: teacher.organisation_id, email: 'head@example.org' });
    expect(admin.user?.email).toBe('head@example.org');
    expect(admin.user_id).toBe(admin.user?.id);
  });
});
