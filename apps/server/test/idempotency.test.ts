import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLicense, buildTeacher } from './factories.js';
import { buildTestApp, type TestApp } from './helper.js';
import { graphql, orgPath, orgWithAdmin } from './teachers.helpers.js';

// An action replayed with the same Idempotency-Key (a double click, a retried request)
// is refused and changes nothing the second time.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const SEND = `mutation($orgId: ID!, $email: TeacherEmailInput!) { sendEmail(orgId: $orgId, email: $email) { sentTo errors } }`;

describe('Idempotency-Key', () => {
  it('imports once: the same key again is refused with 409 duplicate_request', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const url = `${orgPath(orgId)}/members/import/teachers`;
    const keyed = { ...headers, 'idempotency-key': 'import-1' };
    const first = await t.app.inject({ method: 'POST', url, headers: keyed, payload: { emails: ['one@s.org'] } });
    expect(first.statusCode).toBe(200);
    const replay = await t.app.inject({ method: 'POST', url, headers: keyed, payload: { emails: ['one@s.org', 'two@s.org'] } });
    expect(replay.statusCode).toBe(409);
    expect(replay.json().code).toBe('duplicate_request');
    const members = await t.app.db.selectFrom('members').select('email').where('organisation_id', '=', orgId).execute();
    expect(members.map((m) => m.email)).toEqual(['one@s.org']);
    // A new action (a new key) goes through.
    const next = await t.app.inject({ method: 'POST', url, headers: { ...headers, 'idempotency-key': 'import-2' }, payload: { emails: ['two@s.org'] } });
    expect(next.statusCode).toBe(200);
  });

  it('sends the welcome e-mail once for one key, and a failed action can be retried with its key', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const teacher = await buildTeacher(t.app.db, { organisationId: orgId, pending: true, role: -600 });
    const email = { kind: 'WELCOME', subject: 'Welcome', body: { plain: 'Hello' }, members: [teacher.id] };
    const keyed = { ...headers, 'idempotency-key': 'send-1' };
    const first = await graphql<{ sendEmail: { sentTo: string[] } }>(t.app, keyed, SEND, { orgId, email });
    expect(first.data?.sendEmail.sentTo).toEqual([teacher.id]);
    const replay = await graphql(t.app, keyed, SEND, { orgId, email });
    expect(replay.errors?.[0]?.extensions?.code).toBe('duplicate_request');
    await t.app.mail.waitForIdle();
    const mails = await t.app.db.selectFrom('mail_outbox').select('id').where('recipient', '=', teacher.email).execute();
    expect(mails).toHaveLength(1);

    // Refused for a reason (here an unknown licence), the key is released: the corrected retry works.
    const license = await buildLicense(t.app.db, { organisationId: orgId });
    const retryKey = { ...headers, 'idempotency-key': 'assign-1' };
    const refused = await t.app.inject({ method: 'PUT', url: `${orgPath(orgId)}/licenses/nope`, headers: retryKey, payload: [teacher.id] });
    expect(refused.statusCode).toBe(404);
    const assigned = await t.app.inject({ method: 'PUT', url: `${orgPath(orgId)}/licenses/${license.id}`, headers: retryKey, payload: [teacher.id] });
    expect(assigned.statusCode).toBe(200);
    const again = await t.app.inject({ method: 'PUT', url: `${orgPath(orgId)}/licenses/${license.id}`, headers: retryKey, payload: [teacher.id] });
    expect(again.statusCode).toBe(409);
  });
});
