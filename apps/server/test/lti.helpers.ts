import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { signIn } from './auth.js';
import { buildAdmin, buildOrganisation } from './factories.js';
import { buildTestApp, type TestApp } from './helper.js';
import { startPlatform, type PlatformSimulator } from './lti-platform.js';

/**
 * A new organisation with the simulated platform registered for LTI 1.3, the way its admin registers one: through the
 * LMS Integration page's call (201). Answers the organisation's id. `tokenEndpoint` replaces the platform's own (a
 * test that serves the platform's services itself).
 */
export async function organisationWithPlatform(
  app: FastifyInstance,
  platform: Pick<PlatformSimulator, 'issuer' | 'clientId' | 'deploymentId' | 'authEndpoint' | 'tokenEndpoint' | 'jwksUrl'>,
  options: { name: string; tokenEndpoint?: string },
): Promise<string> {
  const organisationId = (await buildOrganisation(app.db)).id;
  const email = `admin-${randomUUID().slice(0, 8)}@school.example.org`;
  await buildAdmin(app.db, { organisationId, email });
  const { headers } = await signIn(app, { email });
  const created = await app.inject({
    method: 'POST',
    url: `/api/organisations/${organisationId}/lti/platforms`,
    headers,
    payload: {
      name: options.name,
      issuer: platform.issuer,
      clientId: platform.clientId,
      deploymentIds: [platform.deploymentId],
      authEndpoint: platform.authEndpoint,
      tokenEndpoint: options.tokenEndpoint ?? platform.tokenEndpoint,
      jwksUrl: platform.jwksUrl,
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  return organisationId;
}

/**
 * A test app at `appUrl` and a simulated LTI 1.3 platform launching it, registered by a new organisation named `name`
 * (as organisationWithPlatform). The caller closes the platform, then the app.
 */
export async function appWithPlatform(appUrl: string, name: string): Promise<{ t: TestApp; launchUrl: string; platform: PlatformSimulator; orgId: string }> {
  const t = await buildTestApp({ APP_URL: appUrl });
  const launchUrl = `${t.env.PUBLIC_URL}/lti/1.3/launch`;
  const platform = await startPlatform({ toolLaunchUrl: launchUrl });
  const orgId = await organisationWithPlatform(t.app, platform, { name });
  return { t, launchUrl, platform, orgId };
}

/** A launch refused with the tool's HTML page (not the API's JSON): its status and a text that says why. */
export function expectRefusalPage(response: { statusCode: number; headers: Record<string, unknown>; body: string }, status: number, text: RegExp): void {
  expect(response.statusCode, response.body).toBe(status);
  expect(String(response.headers['content-type'])).toContain('text/html');
  expect(response.body).toContain('could not be opened');
  expect(response.body).toMatch(text);
}
