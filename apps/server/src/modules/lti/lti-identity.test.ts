import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../env.js';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { consoleOrigin, sessionCookieFrom, signIn, type SignedInHeaders } from '../../../test/auth.js';
import { buildAdmin, buildOrganisation, buildTeacher } from '../../../test/factories.js';
import { orgPath } from '../../../test/teachers.helpers.js';
import { launchParams, signLaunch, type Consumer } from '../../../test/lti-consumer.js';

/**
 * The LTI identity rule (docs/lti.md, docs/security.md): an LTI identity is the platform's user (the
 * organisation's credentials plus user_id), never an e-mail address. These are the attack chains a security
 * probe found, kept as tests; each failed before the fix. They run in test mode and once in production mode.
 */

const APP_URL = 'https://app.quire.test';
const PASSWORD = 'victim-password-1';
const unique = (label: string) => `${label}-${Math.random().toString(36).slice(2, 8)}@school.example.org`;
const GENERATE = 'mutation generateLTICredentials($orgId: ID!) { generateLTICredentials(orgId: $orgId) { consumerKey consumerSecret } }';
const READ_LTI = 'query getOrganisationById($id: ID!) { getOrganisationById(id: $id) { id lti { consumerKey usersCreated } } }';

function suite(mode: 'test' | 'production') {
  describe(`LTI identity (${mode} mode)`, () => {
    let t: TestApp;
    let launchUrl: string;
    let origin: string;

    // The default burst (150) in test mode; production mode checks the same rule with a burst of 12, so the run does
    // not create another 150 accounts to prove it.
    const burst = mode === 'test' ? 150 : 12;

    beforeAll(async () => {
      const overrides: Partial<Env> = { APP_URL, LTI_NEW_USERS_BURST: burst, LTI_NEW_USERS_PER_HOUR: 60 };
      t = await buildTestApp(mode === 'production' ? { ...overrides, NODE_ENV: 'production', LTI_ENCRYPTION_KEY: randomBytes(32).toString('hex') } : overrides);
      launchUrl = `${t.env.PUBLIC_URL}/lti/launch`;
      origin = consoleOrigin(t.app);
    });
    afterAll(() => t?.close());

    /** An organisation whose admin (not an admin anywhere else) generated its credentials. */
    async function attackerOrganisation() {
      const org = await buildOrganisation(t.app.db);
      const email = unique('attacker');
      await buildAdmin(t.app.db, { organisationId: org.id, email });
      const { headers } = await signIn(t.app, { email });
      const response = await t.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query: GENERATE, variables: { orgId: org.id } } });
      const answer = response.json().data.generateLTICredentials as { consumerKey: string; consumerSecret: string };
      return { orgId: org.id, headers, consumer: { key: answer.consumerKey, secret: answer.consumerSecret } satisfies Consumer };
    }

    /** Organisation A with a library manager who signs in with a password. */
    async function victimOrganisation() {
      const org = await buildOrganisation(t.app.db, { org_libraries: true });
      await buildTeacher(t.app.db, { organisationId: org.id, email: unique('colleague') });
      const email = unique('manager');
      const { userId, headers } = await signIn(t.app, { email, password: PASSWORD, name: 'Vera Victim' });
      await buildTeacher(t.app.db, { organisationId: org.id, email, user_id: userId, role: 400, display_name: 'Vera Victim' });
      return { orgId: org.id, email, userId, headers };
    }

    async function launch(consumer: Consumer, params: Record<string, string>) {
      const { url, form } = signLaunch(launchUrl, consumer, params);
      return t.app.inject({
        method: 'POST',
        url: url.replace(t.env.PUBLIC_URL ?? '', ''),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://canvas.example.edu' },
        payload: new URLSearchParams(form).toString(),
      });
    }

    /** Follows a launch's token the way the app does: the session it gives, and its headers. */
    async function sessionOf(location: string | undefined) {
      const token = new URL(location ?? 'http://x.invalid').searchParams.get('token') ?? '';
      const signedIn = await t.app.inject({ method: 'POST', url: '/identity/one-time-token/verify', headers: { origin }, payload: { token } });
      expect(signedIn.statusCode).toBe(200);
      const cookie = sessionCookieFrom(signedIn.headers['set-cookie']) ?? '';
      const user = signedIn.json().user as { id: string; email: string; emailVerified: boolean; name: string };
      const headers: SignedInHeaders = { cookie, 'x-acting-user': user.id, origin };
      return { user, headers };
    }

    it('chain 1: an import and a signed launch with another organisation’s address never sign in as that person', async () => {
      const victim = await victimOrganisation();
      const attacker = await attackerOrganisation();
      const before = await t.app.db.selectFrom('user').selectAll().where('id', '=', victim.userId).executeTakeFirstOrThrow();

      // The attacker imports the victim's address as a pending teacher of B …
      const imported = await t.app.inject({ method: 'POST', url: `${orgPath(attacker.orgId)}/members/import/teachers`, headers: attacker.headers, payload: { emails: [victim.email] } });
      expect(imported.statusCode).toBe(200);
      // … which alone does not make the victim's photo readable to B's admin.
      const photo = await t.app.inject({ method: 'GET', url: `/assets/${victim.userId}/avatar`, headers: attacker.headers });
      expect(photo.statusCode).toBe(404);

      // … and launches with the victim's address, correctly signed.
      const response = await launch(attacker.consumer, launchParams({ roles: 'Instructor', lis_person_contact_email_primary: victim.email.toUpperCase() }));
      expect(response.statusCode).toBe(302);
      const session = await sessionOf(response.headers.location);
      expect(session.user.id).not.toBe(victim.userId);
      expect(session.user.email).not.toBe(victim.email);
      expect(session.user.emailVerified).toBe(false);

      // The launch's session reads nothing of A, and its name change changes the launch's own account.
      const teachers = await t.app.inject({ method: 'GET', url: `${orgPath(victim.orgId)}/members/teachers`, headers: session.headers });
      expect([403, 404]).toContain(teachers.statusCode);
      const rename = await t.app.inject({ method: 'POST', url: '/identity/update-user', headers: session.headers, payload: { name: 'Owned' } });
      expect(rename.statusCode).toBeLessThan(500);
      const after = await t.app.db.selectFrom('user').selectAll().where('id', '=', victim.userId).executeTakeFirstOrThrow();
      expect(after).toEqual(before);

      // The pending row still names nobody, and the victim's own sign-in still reads A.
      const pending = await t.app.db.selectFrom('members').select(['pending', 'user_id']).where('organisation_id', '=', attacker.orgId).where('email', '=', victim.email).executeTakeFirstOrThrow();
      expect(pending).toEqual({ pending: true, user_id: null });
      expect(await t.app.db.selectFrom('lti_users').select('user_id').where('user_id', '=', victim.userId).execute()).toEqual([]);
      const own = await t.app.inject({ method: 'GET', url: `${orgPath(victim.orgId)}/members/teachers`, headers: victim.headers });
      expect(own.statusCode).toBe(200);
    });

    it('chain 2: a launch that claimed an address first never reaches the owner who registers it later', async () => {
      const { orgId, consumer } = await attackerOrganisation();
      const email = unique('owner');
      const userId = `lms-user-${Math.random().toString(36).slice(2, 10)}`;
      const first = await launch(consumer, launchParams({ user_id: userId, lis_person_contact_email_primary: email }));
      expect(first.statusCode).toBe(302);
      const launched = await sessionOf(first.headers.location);
      expect(launched.user.email).not.toBe(email);

      // The owner registers the address: it works (the launch did not squat it), then verifies it.
      const registered = await t.app.inject({
        method: 'POST',
        url: '/auth/email',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ email, password: 'owner-secret-1', displayName: 'Olive Owner', isTeacher: 'true', registrationAttempt: 'true' }).toString(),
      });
      expect(registered.statusCode).toBe(200);
      await t.app.mail.waitForIdle();
      const mail = await t.app.db.selectFrom('mail_outbox').select('text_body').where('recipient', '=', email).where('subject', '=', 'Verify your email address').executeTakeFirstOrThrow();
      const link = new URL(mail.text_body.match(/https?:\/\/\S+verify-email\S*/)?.[0] ?? '');
      expect((await t.app.inject({ method: 'GET', url: link.pathname + link.search })).statusCode).toBeLessThan(400);
      const owner = await t.app.db.selectFrom('user').select(['id', 'emailVerified']).where('email', '=', email).executeTakeFirstOrThrow();
      expect(owner.id).not.toBe(launched.user.id);
      expect(owner.emailVerified).toBe(true);
      // … and becomes a library manager of another organisation.
      const other = await buildOrganisation(t.app.db, { org_libraries: true });
      await buildTeacher(t.app.db, { organisationId: other.id, email, user_id: owner.id, role: 400 });

      // A password reset for the address reaches the owner's account only.
      const reset = await t.app.inject({ method: 'POST', url: '/identity/request-password-reset', headers: { origin }, payload: { email, redirectTo: '/auth/reset-password' } });
      expect(reset.statusCode).toBe(200);

      // The same platform user launches again without an e-mail: still the launch's own account.
      const second = await launch(consumer, launchParams({ user_id: userId }));
      expect(second.statusCode).toBe(302);
      const again = await sessionOf(second.headers.location);
      expect(again.user.id).toBe(launched.user.id);
      expect(again.user.id).not.toBe(owner.id);
      const members = await t.app.db.selectFrom('members').select('user_id').where('organisation_id', '=', orgId).execute();
      expect(members.map((m) => m.user_id)).not.toContain(owner.id);
    });

    it('a launch never uses the return URL before its signature is verified', async () => {
      const { consumer } = await attackerOrganisation();
      const evil = 'https://evil.example/phish';
      const unsigned = await t.app.inject({
        method: 'POST', url: '/lti/launch', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ launch_presentation_return_url: evil }).toString(),
      });
      expect(unsigned.statusCode).toBe(400);
      expect(unsigned.headers.location).toBeUndefined();
      expect(unsigned.body).toContain('could not be opened');

      const badlySigned = signLaunch(launchUrl, { key: consumer.key, secret: 'not-the-secret' }, launchParams({ launch_presentation_return_url: evil }));
      const refused = await t.app.inject({
        method: 'POST', url: '/lti/launch', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(badlySigned.form).toString(),
      });
      expect(refused.statusCode).toBe(401);
      expect(refused.headers.location).toBeUndefined();

      // Signed by the platform, the return URL is the platform's own: a refusal goes back there.
      const signed = await launch(consumer, launchParams({ user_id: undefined, launch_presentation_return_url: 'https://canvas.example.edu/back' }));
      expect(signed.statusCode).toBe(302);
      expect(new URL(signed.headers.location ?? '').origin).toBe('https://canvas.example.edu');
      const javascript = await launch(consumer, launchParams({ user_id: undefined, launch_presentation_return_url: 'javascript:alert(1)' }));
      expect(javascript.statusCode).toBe(400);
      expect(javascript.headers.location).toBeUndefined();
    });

    it(`refuses the new account after a burst of ${burst}, records the refusal, still signs in known users, and shows the count`, async () => {
      const { orgId, headers, consumer } = await attackerOrganisation();
      const known = launchParams({ user_id: 'known-user' });
      expect((await launch(consumer, known)).statusCode).toBe(302);
      for (let i = 1; i < burst; i += 1) {
        const response = await launch(consumer, launchParams({ user_id: `burst-${i}` }));
        expect(response.statusCode, `launch ${i}`).toBe(302);
      }
      const refused = await launch(consumer, launchParams({ user_id: 'burst-over' }));
      expect(refused.statusCode).toBe(429);
      expect(refused.body).toContain('too many new accounts');
      expect(await t.app.db.selectFrom('lti_users').select('lti_user_id').where('organisation_id', '=', orgId).where('lti_user_id', '=', 'burst-over').execute()).toEqual([]);
      const audit = await t.app.db.selectFrom('audit_events').select('details').where('organisation_id', '=', orgId).where('action', '=', 'lti.provisioning_refused').execute();
      expect(audit).toHaveLength(1);

      // A platform user who already has an account is not a new account.
      expect((await launch(consumer, launchParams({ user_id: 'known-user' }))).statusCode).toBe(302);

      const read = await t.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query: READ_LTI, variables: { id: orgId } } });
      expect(read.json().data.getOrganisationById.lti).toEqual({ consumerKey: consumer.key, usersCreated: burst });
    }, 180_000);
  });
}

suite('test');
suite('production');
