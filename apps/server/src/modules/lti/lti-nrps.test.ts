import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { organisationWithPlatform } from '../../../test/lti.helpers.js';
import { ROLE, startPlatform, type PlatformSimulator } from '../../../test/lti-platform.js';
import { NRPS_QUEUE } from './lti-nrps.service.js';

/**
 * Names and Role Provisioning Services after a teacher's launch: the platform's side (a token endpoint that checks the
 * tool's client assertion against the JWKS the tool publishes, and a paged roster) is written here, from the
 * specifications; the course's active teachers with an address become pending members, once.
 */
const NRPS_CLAIM = 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice';
const INSTRUCTOR = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor';
let t: TestApp;
let platform: PlatformSimulator;
let services: Server;
let servicesOrigin = '';
let orgId: string;
let launchUrl: string;
const grants: Array<{ form: URLSearchParams; assertion: JWTPayload | string }> = [];
const rosterReads: Array<{ authorization: string | undefined; accept: string | undefined; url: string }> = [];
const suffix = Math.random().toString(36).slice(2, 8);
const teacherA = `teacher-a-${suffix}@school.example.org`;
const teacherB = `teacher-b-${suffix}@school.example.org`;
const alreadyThere = `already-${suffix}@school.example.org`;

beforeAll(async () => {
  t = await buildTestApp();
  launchUrl = `${t.env.PUBLIC_URL}/lti/1.3/launch`;
  platform = await startPlatform({ toolLaunchUrl: launchUrl });
  const toolJwks = createLocalJWKSet((await t.app.inject({ method: 'GET', url: '/lti/1.3/jwks' })).json());
  services = createServer((request, response) => {
    const url = new URL(request.url ?? '/', servicesOrigin);
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
        response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
      if (url.pathname === '/token' && request.method === 'POST') {
        const form = new URLSearchParams(text);
        void jwtVerify(form.get('client_assertion') ?? '', toolJwks, { issuer: platform.clientId, subject: platform.clientId, audience: `${servicesOrigin}/token` })
          .then(({ payload }) => {
            grants.push({ form, assertion: payload });
            const ok = form.get('grant_type') === 'client_credentials' && form.get('client_assertion_type') === 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
            if (!ok) return json(400, { error: 'invalid_request' });
            json(200, { access_token: 'roster-token', token_type: 'Bearer', expires_in: 3600, scope: form.get('scope') });
          })
          .catch((error: unknown) => {
            grants.push({ form, assertion: String(error) });
            json(401, { error: 'invalid_client' });
          });
        return;
      }
      if (url.pathname === '/memberships') {
        rosterReads.push({ authorization: request.headers.authorization, accept: request.headers.accept, url: url.toString() });
        if (request.headers.authorization !== 'Bearer roster-token') return json(401, { error: 'unauthorized' });
        if (url.searchParams.get('page') !== '2') {
          const next = new URL(url);
          next.searchParams.set('page', '2');
          return json(
            200,
            {
              id: url.toString(),
              context: { id: 'course-7' },
              members: [
                { user_id: 'a', status: 'Active', roles: [INSTRUCTOR], email: teacherA, name: 'Tea A' },
                { user_id: 's', status: 'Active', roles: ['http://purl.imsglobal.org/vocab/lis/v2/membership#Learner'], email: `student-${suffix}@school.example.org` },
                { user_id: 'i', status: 'Inactive', roles: [INSTRUCTOR], email: `inactive-${suffix}@school.example.org` },
                { user_id: 'n', status: 'Active', roles: [INSTRUCTOR] },
                { user_id: 'x', status: 'Active', roles: [INSTRUCTOR], email: `x-${suffix}@lti.invalid` },
              ],
            },
            { link: `<${next.toString()}>; rel="next"`, 'content-type': 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json' },
          );
        }
        return json(200, {
          id: url.toString(),
          context: { id: 'course-7' },
          members: [
            { user_id: 'b', roles: ['http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant'], email: teacherB.toUpperCase() },
            { user_id: 'c', status: 'Active', roles: [INSTRUCTOR], email: alreadyThere },
          ],
        });
      }
      response.writeHead(404).end();
    });
  });
  await new Promise<void>((done) => services.listen(0, '127.0.0.1', () => done()));
  const address = services.address();
  servicesOrigin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  orgId = await organisationWithPlatform(t.app, platform, { name: 'Roster LMS', tokenEndpoint: `${servicesOrigin}/token` });
  await t.app.db.insertInto('members').values({ id: `m-${suffix}`, organisation_id: orgId, email: alreadyThere, role: 600, pending: false }).execute();
});
afterAll(async () => {
  await platform?.close();
  await new Promise<void>((done) => (services ? services.close(() => done()) : done()));
  await t?.close();
});

async function launch(overrides: Record<string, unknown>) {
  const params = new URLSearchParams({ iss: platform.issuer, login_hint: 'h', target_link_uri: launchUrl, client_id: platform.clientId });
  const login = await t.app.inject({ method: 'GET', url: `/lti/1.3/login?${params}` });
  const redirect = new URL(login.headers.location ?? '');
  const cookie = String(([] as string[]).concat(login.headers['set-cookie'] ?? []).find((c) => c.startsWith('lti_state_'))).split(';')[0] ?? '';
  const idToken = await platform.idToken({ nonce: redirect.searchParams.get('nonce') ?? '', overrides });
  return t.app.inject({
    method: 'POST',
    url: '/lti/1.3/launch',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    payload: new URLSearchParams({ id_token: idToken, state: redirect.searchParams.get('state') ?? '' }).toString(),
  });
}

const pendingEmails = async () =>
  (await t.app.db.selectFrom('members').select(['email', 'role', 'pending']).where('organisation_id', '=', orgId).orderBy('email').execute()).map((m) => `${m.email} ${m.role} ${m.pending}`);

describe('names and roles after a launch', () => {
  it('a student’s launch reads no roster', async () => {
    const response = await launch({ sub: `student-${suffix}`, [`https://purl.imsglobal.org/spec/lti/claim/roles`]: [ROLE.learner], [NRPS_CLAIM]: { context_memberships_url: `${servicesOrigin}/memberships`, service_versions: ['2.0'] } });
    expect(response.statusCode, response.body).toBe(302);
    await t.app.jobs.waitForIdle(NRPS_QUEUE);
    expect(grants).toHaveLength(0);
  });

  it('a teacher’s launch adds the course’s active teachers with an address as pending members, with a grant signed by the tool’s key', async () => {
    const response = await launch({ sub: `teacher-${suffix}`, [NRPS_CLAIM]: { context_memberships_url: `${servicesOrigin}/memberships`, service_versions: ['2.0'] } });
    expect(response.statusCode, response.body).toBe(302);
    await t.app.jobs.waitForIdle(NRPS_QUEUE);

    expect(grants).toHaveLength(1);
    expect(typeof grants[0]?.assertion, String(grants[0]?.assertion)).toBe('object');
    expect(grants[0]?.form.get('scope')).toBe('https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly');
    expect(grants[0]?.assertion).toMatchObject({ iss: platform.clientId, sub: platform.clientId, aud: `${servicesOrigin}/token`, jti: expect.any(String) });
    expect(rosterReads).toHaveLength(2);
    expect(rosterReads[0]).toMatchObject({ authorization: 'Bearer roster-token', accept: 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json' });
    expect(new URL(rosterReads[0]?.url ?? '').searchParams.get('role')).toBe(INSTRUCTOR);

    const members = await pendingEmails();
    expect(members).toContain(`${teacherA} -600 true`);
    expect(members).toContain(`${teacherB} -600 true`);
    // The member already there is as it was; the student, the inactive teacher, no address and a reserved one: none.
    expect(members).toContain(`${alreadyThere} 600 false`);
    expect(members.filter((m) => /student-|inactive-|lti\.invalid/.test(m) && m.includes('-600'))).toEqual([]);

    const audit = await t.app.db.selectFrom('audit_events').select(['action', 'actor_kind', 'details']).where('organisation_id', '=', orgId).where('action', '=', 'lti.teachers_provisioned').execute();
    expect(audit).toEqual([expect.objectContaining({ actor_kind: 'lti_platform', details: expect.objectContaining({ count: 2, contextId: 'course-7' }) })]);
  });

  it('reads a course’s roster at most once an hour, and refuses a roster address that is not a platform’s', async () => {
    const before = grants.length;
    expect((await launch({ sub: `teacher2-${suffix}`, [NRPS_CLAIM]: { context_memberships_url: `${servicesOrigin}/memberships` } })).statusCode).toBe(302);
    expect((await launch({ sub: `teacher3-${suffix}`, [NRPS_CLAIM]: { context_memberships_url: 'http://lms.example.org/memberships' } })).statusCode).toBe(302);
    expect((await launch({ sub: `teacher4-${suffix}`, [NRPS_CLAIM]: 'not an object' })).statusCode).toBe(302);
    await t.app.jobs.waitForIdle(NRPS_QUEUE);
    expect(grants.length).toBe(before);
  });
});
