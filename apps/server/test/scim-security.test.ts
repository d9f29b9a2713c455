import { describe, expect, it } from 'vitest';
import type { ScimRequests, ScimSetup } from '@quire/core';
import { signIn } from './auth.js';
import { buildTeacher } from './factories.js';
import { appForFile, uniqueEmail } from './file-app.js';
import { expectScimError, expectScimList, expectScimUser, scim, scimOrganisation } from './scim.helpers.js';

/** SCIM tokens from the console, and the endpoint attacked: other organisations' people, bad input, revoked tokens. */
const t = appForFile();

const newUser = (userName: string, extra: Record<string, unknown> = {}) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName,
  name: { givenName: 'Ada', familyName: 'Lovelace' },
  emails: [{ value: userName, type: 'work', primary: true }],
  ...extra,
});
const patch = (...Operations: unknown[]) => ({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations });

async function memberCount(orgId: string) {
  const row = await t.app.db.selectFrom('members').select((eb) => eb.fn.countAll<string>().as('n')).where('organisation_id', '=', orgId).executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('SCIM tokens in the console', () => {
  it('shows a token once, stores only its hash, lists it with its last use, and refuses it once revoked', async () => {
    const { org, admin, token, tokenId } = await scimOrganisation(t);
    expect(token).toMatch(/^quire_scim_[A-Za-z0-9_-]{43}$/);
    const stored = await t.app.db.selectFrom('scim_tokens').selectAll().where('id', '=', tokenId).executeTakeFirstOrThrow();
    expect(stored.token_hash.toString('hex')).not.toContain(Buffer.from(token).toString('hex'));
    expect(stored.hint).toBe(token.slice(-4));

    const before = (await t.app.inject({ method: 'GET', url: `/api/organisations/${org.id}/scim/tokens`, headers: admin })).json<ScimSetup>();
    expect(before.baseUrl).toMatch(/\/scim\/v2$/);
    expect(before.tokens).toEqual([expect.objectContaining({ id: tokenId, hint: token.slice(-4), lastUsedAt: null })]);
    expect(JSON.stringify(before)).not.toContain(token);

    expectScimList(await scim(t, token, 'GET', '/Users'));
    const after = (await t.app.inject({ method: 'GET', url: `/api/organisations/${org.id}/scim/tokens`, headers: admin })).json<ScimSetup>();
    expect(after.tokens[0]?.lastUsedAt).not.toBeNull();

    // A second token works beside the first (rotation without downtime), then the first is revoked.
    const second = (await t.app.inject({ method: 'POST', url: `/api/organisations/${org.id}/scim/tokens`, headers: admin })).json<{ token: string }>();
    const revoked = await t.app.inject({ method: 'DELETE', url: `/api/organisations/${org.id}/scim/tokens/${tokenId}`, headers: admin });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json<ScimSetup>().tokens.map((x) => x.id)).not.toContain(tokenId);
    expectScimError(await scim(t, token, 'GET', '/Users'), 401);
    expectScimList(await scim(t, second.token, 'GET', '/Users'));
    expect((await t.app.inject({ method: 'DELETE', url: `/api/organisations/${org.id}/scim/tokens/${tokenId}`, headers: admin })).statusCode).toBe(404);
    const audit = await t.app.db.selectFrom('audit_events').select(['action', 'actor_email']).where('organisation_id', '=', org.id).orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['scim.token.generated', 'scim.token.generated', 'scim.token.revoked']);
  });

  it('is for admins only: a library manager, another organisation\'s admin and a signed-out caller are refused', async () => {
    const { org, tokenId } = await scimOrganisation(t);
    const other = await scimOrganisation(t);
    await t.app.db.updateTable('organisations').set({ org_libraries: true }).where('id', '=', org.id).execute();
    const managerEmail = uniqueEmail('manager');
    const { userId } = await signIn(t.app, { email: managerEmail });
    await buildTeacher(t.app.db, { organisationId: org.id, email: managerEmail, role: 400, user_id: userId });
    const manager = (await signIn(t.app, { email: managerEmail })).headers;
    for (const headers of [manager, other.admin]) {
      expect((await t.app.inject({ method: 'GET', url: `/api/organisations/${org.id}/scim/tokens`, headers })).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'POST', url: `/api/organisations/${org.id}/scim/tokens`, headers })).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'DELETE', url: `/api/organisations/${org.id}/scim/tokens/${tokenId}`, headers })).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: `/api/organisations/${org.id}/scim/requests`, headers })).statusCode).toBe(403);
    }
    // Another organisation's token id through one's own organisation: not found, not revoked.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/organisations/${other.org.id}/scim/tokens/${tokenId}`, headers: other.admin })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/organisations/${org.id}/scim/tokens` })).statusCode).toBe(401);
  });

  it('generates once on a double click (one Idempotency-Key)', async () => {
    const { org, admin } = await scimOrganisation(t);
    const headers = { ...admin, 'idempotency-key': 'generate-1' };
    const [a, b] = await Promise.all([
      t.app.inject({ method: 'POST', url: `/api/organisations/${org.id}/scim/tokens`, headers }),
      t.app.inject({ method: 'POST', url: `/api/organisations/${org.id}/scim/tokens`, headers }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect((await t.app.inject({ method: 'GET', url: `/api/organisations/${org.id}/scim/tokens`, headers: admin })).json<ScimSetup>().tokens).toHaveLength(2);
  });
});

describe('the token binds to one organisation', () => {
  it('never reads or changes another organisation\'s people', async () => {
    const mine = await scimOrganisation(t);
    const theirs = await scimOrganisation(t);
    const victim = expectScimUser(await scim(t, theirs.token, 'POST', '/Users', newUser(uniqueEmail('victim'))), 201);
    const plainTeacher = await buildTeacher(t.app.db, { organisationId: theirs.org.id });

    for (const id of [victim.id, plainTeacher.id]) {
      expectScimError(await scim(t, mine.token, 'GET', `/Users/${id}`), 404);
      expectScimError(await scim(t, mine.token, 'PUT', `/Users/${id}`, newUser('taken@example.org')), 404);
      expectScimError(await scim(t, mine.token, 'PATCH', `/Users/${id}`, patch({ op: 'replace', path: 'active', value: false })), 404);
      expectScimError(await scim(t, mine.token, 'DELETE', `/Users/${id}`), 404);
    }
    for (const filter of [`userName eq "${victim.userName as string}"`, `id eq "${victim.id}"`, `emails.value eq "${plainTeacher.email}"`]) {
      expect(expectScimList(await scim(t, mine.token, 'GET', `/Users?filter=${encodeURIComponent(filter)}`)).totalResults).toBe(0);
    }
    // The same address may be a teacher in both organisations: creating it here takes nothing from there.
    expectScimUser(await scim(t, mine.token, 'POST', '/Users', newUser(victim.userName as string)), 201);
    const still = await t.app.db.selectFrom('members').select(['revoked_at', 'email']).where('id', '=', victim.id).executeTakeFirstOrThrow();
    expect(still.revoked_at).toBeNull();
    expect(expectScimUser(await scim(t, theirs.token, 'GET', `/Users/${victim.id}`)).active).toBe(true);
  });

  it('refuses requests without a valid bearer token, whatever cookie comes along', async () => {
    const { admin } = await scimOrganisation(t);
    for (const authorization of [undefined, 'Bearer ', 'Bearer quire_scim_notatoken0000000000000000000000000000000', 'Basic dXNlcjpwYXNz']) {
      const response = await t.app.inject({ method: 'GET', url: '/scim/v2/Users', headers: { ...(authorization ? { authorization } : {}), cookie: admin.cookie } });
      expectScimError(response, 401);
    }
  });
});

describe('bad input is a SCIM error and changes nothing', () => {
  it('answers malformed JSON, unknown attributes, a 1 MB body, filter injection and immutable attributes with 4xx', async () => {
    const { org, token } = await scimOrganisation(t);
    const user = expectScimUser(await scim(t, token, 'POST', '/Users', newUser(uniqueEmail('kept'))), 201);
    const before = await memberCount(org.id);

    expectScimError(await scim(t, token, 'POST', '/Users', '{"schemas": ["urn:ietf:params:scim:schemas:core:2.0:User"], "userName": '), 400, 'invalidSyntax');
    expectScimError(await scim(t, token, 'POST', '/Users', newUser(uniqueEmail('x'), { favouriteColour: 'blue' })), 400, 'invalidValue');
    expectScimError(await scim(t, token, 'POST', '/Users', { userName: uniqueEmail('noschema') }), 400, 'invalidSyntax');
    expectScimError(await scim(t, token, 'POST', '/Users', newUser('not-an-address', { emails: [] })), 400, 'invalidValue');
    expectScimError(await scim(t, token, 'POST', '/Users', newUser(uniqueEmail('big'), { displayName: 'x'.repeat(1024 * 1024) })), 413);
    expectScimError(await scim(t, token, 'POST', '/Users', newUser(uniqueEmail('ctl'), { displayName: 'a\u0000b' })), 400, 'invalidValue');
    expectScimError(await scim(t, token, 'POST', '/Users', [1, 2, 3]), 400, 'invalidSyntax');

    for (const filter of [
      `userName eq "x" or 1=1`, `userName eq "x'; DROP TABLE members; --"`, `userName co "a"`, `password eq "x"`, `userName eq`, `"`, 'x'.repeat(2000),
      `meta.created gt "2020-01-01"`,
    ]) {
      const response = await scim(t, token, 'GET', `/Users?filter=${encodeURIComponent(filter)}`);
      if (response.statusCode === 200) expect(expectScimList(response).totalResults).toBe(0);
      else expectScimError(response, 400, 'invalidFilter');
    }
    expectScimError(await scim(t, token, 'GET', '/Users?startIndex=abc'), 400, 'invalidValue');
    expectScimError(await scim(t, token, 'GET', '/Users?count=1.5'), 400, 'invalidValue');
    expect(expectScimList(await scim(t, token, 'GET', '/Users?count=100000')).itemsPerPage).toBeLessThanOrEqual(200);

    expectScimError(await scim(t, token, 'PATCH', `/Users/${user.id}`, patch({ op: 'replace', path: 'id', value: 'mine' })), 400, 'mutability');
    expectScimError(await scim(t, token, 'PATCH', `/Users/${user.id}`, patch({ op: 'replace', path: 'meta.created', value: 'x' })), 400, 'mutability');
    expectScimError(await scim(t, token, 'PUT', `/Users/${user.id}`, { ...newUser(user.userName as string), id: 'another' }), 400, 'mutability');
    expectScimError(await scim(t, token, 'PATCH', `/Users/${user.id}`, patch({ op: 'replace', path: 'favouriteColour', value: 'x' })), 400, 'invalidPath');
    expectScimError(await scim(t, token, 'PATCH', `/Users/${user.id}`, patch({ op: 'explode', path: 'active', value: false })), 400, 'invalidSyntax');
    expectScimError(await scim(t, token, 'PATCH', `/Users/${user.id}`, patch({ op: 'replace', path: 'active', value: 'maybe' })), 400, 'invalidValue');
    // A bad second operation undoes nothing of the first: nothing is written.
    expectScimError(await scim(t, token, 'PATCH', `/Users/${user.id}`, patch({ op: 'replace', path: 'displayName', value: 'Changed' }, { op: 'replace', path: 'emails[type eq "work"].value', value: 'not an address' })), 400, 'invalidValue');

    expect(await memberCount(org.id)).toBe(before);
    expect(expectScimUser(await scim(t, token, 'GET', `/Users/${user.id}`))).toMatchObject({ displayName: 'Ada Lovelace', active: true, id: user.id });
    expectScimError(await scim(t, token, 'GET', '/Bulk'), 404);
  });

  it('keeps userName and e-mail unique in the organisation (409 uniqueness), also when two creates race', async () => {
    const { org, token } = await scimOrganisation(t);
    const a = expectScimUser(await scim(t, token, 'POST', '/Users', newUser('first@school.example.org')), 201);
    const b = expectScimUser(await scim(t, token, 'POST', '/Users', newUser('second@school.example.org')), 201);
    expectScimError(await scim(t, token, 'POST', '/Users', newUser('FIRST@school.example.org')), 409, 'uniqueness');
    expectScimError(await scim(t, token, 'PATCH', `/Users/${b.id}`, patch({ op: 'replace', path: 'userName', value: 'First@School.example.org' })), 409, 'uniqueness');
    expectScimError(await scim(t, token, 'PATCH', `/Users/${b.id}`, patch({ op: 'replace', path: 'emails[type eq "work"].value', value: 'first@school.example.org' })), 409, 'uniqueness');
    expect(a.id).not.toBe(b.id);
    const racing = await Promise.all([1, 2, 3, 4].map(() => scim(t, token, 'POST', '/Users', newUser('racer@school.example.org'))));
    expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
    const rows = await t.app.db.selectFrom('members').select('id').where('organisation_id', '=', org.id).where('email', '=', 'racer@school.example.org').execute();
    expect(rows).toHaveLength(1);
  });

  it('takes over a teacher the organisation already has, and refuses a student\'s address', async () => {
    const { org, token } = await scimOrganisation(t);
    const existing = await buildTeacher(t.app.db, { organisationId: org.id, email: 'imported@school.example.org', revoked_at: new Date() });
    const adopted = expectScimUser(await scim(t, token, 'POST', '/Users', newUser('imported@school.example.org', { active: true })), 201);
    expect(adopted.id).toBe(existing.id);
    expect(adopted.active).toBe(true);
    await buildTeacher(t.app.db, { organisationId: org.id, email: 'student@school.example.org', is_student: true });
    expectScimError(await scim(t, token, 'POST', '/Users', newUser('student@school.example.org')), 409, 'uniqueness');
  });
});

describe('the request log', () => {
  it('lists the organisation\'s last 50 SCIM requests, newest first, with operation, user and outcome', async () => {
    const { org, admin, token } = await scimOrganisation(t);
    await scim(t, token, 'POST', '/Users', newUser('logged@school.example.org'));
    await scim(t, token, 'POST', '/Users', newUser('logged@school.example.org'));
    await scim(t, token, 'GET', `/Users?filter=${encodeURIComponent('userName eq "logged@school.example.org"')}`);
    // The log row is written once the answer has gone (onResponse): the console's next read shows it.
    const readLog = async () => (await t.app.inject({ method: 'GET', url: `/api/organisations/${org.id}/scim/requests`, headers: admin })).json<ScimRequests>().requests;
    await expect.poll(async () => (await readLog())[0]?.operation).toBe('List users');
    expect((await readLog()).slice(0, 3)).toEqual([
      expect.objectContaining({ method: 'GET', operation: 'List users', user: 'userName eq "logged@school.example.org"', status: 200, outcome: 'OK' }),
      expect.objectContaining({ method: 'POST', operation: 'Create user', user: 'logged@school.example.org', status: 409, outcome: expect.stringMatching(/^uniqueness: /) }),
      expect.objectContaining({ method: 'POST', operation: 'Create user', user: 'logged@school.example.org', status: 201, outcome: 'OK' }),
    ]);
    for (let i = 0; i < 55; i += 1) await scim(t, token, 'GET', '/ServiceProviderConfig');
    await expect.poll(async () => (await readLog()).every((r) => r.operation === 'Read configuration')).toBe(true);
    expect(await readLog()).toHaveLength(50);
  });
});
