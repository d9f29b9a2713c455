import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { buildOrganisation, buildTeacher, buildUser } from '../../../test/factories.js';
import * as migration from './0011-lti-identity.js';

// Migration 0011 on data written under the old rule (a launch linked accounts by e-mail and created
// accounts holding the platform's address): run down, write such rows, run up again.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

describe('migration 0011-lti-identity', () => {
  it('drops links to accounts with a way in of their own and gives launch-made accounts an lti.invalid address', async () => {
    const db = t.app.db;
    const org = await buildOrganisation(db);
    // An account with a password that an old launch linked by e-mail (the takeover chain).
    const owner = await buildUser(db, { email: 'owner@school.example.org' });
    await db.insertInto('account').values({ id: randomUUID(), accountId: owner.id, providerId: 'credential', userId: owner.id, password: 'x', createdAt: new Date(), updatedAt: new Date() }).execute();
    // An account a launch made, holding the platform's address, and its member row; a pending row of the same
    // address in another organisation belongs to the address's owner and stays as it is.
    const launched = await buildUser(db, { email: 'squatted@school.example.org', emailVerified: false });
    const member = await buildTeacher(db, { organisationId: org.id, email: 'squatted@school.example.org', user_id: launched.id });
    const elsewhere = await buildTeacher(db, { email: 'squatted@school.example.org', pending: true, role: -600 });

    await migration.down(db as never);
    await db.insertInto('lti_users').values([
      { organisation_id: org.id, lti_user_id: 'old-owner', user_id: owner.id },
      { organisation_id: org.id, lti_user_id: 'old-launch', user_id: launched.id },
    ] as never).execute();
    await migration.up(db as never);

    const links = await db.selectFrom('lti_users').select(['lti_user_id', 'user_id', 'contact_email']).where('organisation_id', '=', org.id).execute();
    expect(links).toEqual([{ lti_user_id: 'old-launch', user_id: launched.id, contact_email: 'squatted@school.example.org' }]);
    const account = await db.selectFrom('user').select(['email', 'emailVerified']).where('id', '=', launched.id).executeTakeFirstOrThrow();
    expect(account).toEqual({ email: expect.stringMatching(/^lti-[0-9a-f]{32}@lti\.invalid$/), emailVerified: false });
    expect((await db.selectFrom('members').select('email').where('id', '=', member.id).executeTakeFirstOrThrow()).email).toBe(account.email);
    expect(await db.selectFrom('members').select(['email', 'pending', 'user_id']).where('id', '=', elsewhere.id).executeTakeFirstOrThrow()).toEqual({
      email: 'squatted@school.example.org', pending: true, user_id: null,
    });
    expect((await db.selectFrom('user').select('email').where('id', '=', owner.id).executeTakeFirstOrThrow()).email).toBe('owner@school.example.org');
  });
});
