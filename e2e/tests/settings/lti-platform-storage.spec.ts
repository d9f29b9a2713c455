import { expect, test } from '../../fixtures/auth.js';
import { exchangeLaunchToken, startE2ePlatform } from '../../support/lti-platform.js';
import { readConsoleConfig } from '../../support/contracts.js';
import { checkAccessibility } from '../../support/axe.js';
import { changeableOrganisation } from '../teachers/teachers-api.js';
import { launchOrganisation } from './settings-api.js';

/**
 * LTI 1.3 inside the platform's frame with the tool's cookie gone (a browser that keeps no third-party cookie): the
 * platform offers its storage (LTI Client Side postMessage), the tool keeps the login's state and nonce there and reads
 * them back at the launch, and the person lands in the app signed in. A platform that does not answer gets the page
 * that opens the tool in a new window.
 */
test('a launch framed by the platform, with the tool’s cookie blocked, ends signed in through the platform’s storage', async ({ page, browser, organisation, organisations }) => {
  const base = process.env.E2E_BASE_URL ?? '';
  const changeable = await changeableOrganisation(page, organisations, organisation);
  const org = launchOrganisation(organisations, organisation, changeable);
  // On another site than the tool, as a real platform is; and with a JWKS URL of its own (the tool caches a platform's
  // keys by URL, and the LTI 1.3 spec's platform may have had this port a moment ago).
  const platform = await startE2ePlatform({ loginUrl: `${base}/lti/1.3/login`, launchUrl: `${base}/lti/1.3/launch`, host: '127.0.0.1' });
  const registered = await page.request.post(`/api/organisations/${encodeURIComponent(org.id)}/lti/platforms`, {
    headers: { origin: base },
    data: {
      name: `Storage LMS ${platform.clientId.slice(-8)}`,
      issuer: platform.issuer,
      clientId: platform.clientId,
      deploymentIds: [platform.deploymentId],
      authEndpoint: platform.authEndpoint,
      tokenEndpoint: platform.tokenEndpoint,
      jwksUrl: platform.jwksUrl,
    },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const platformId = ((await registered.json()) as { id: string }).id;
  const { appUrl } = await readConsoleConfig(page);
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  try {
    // The browser drops the tool's cookie between the login and the launch: every cookie of the context is cleared
    // as the tool's login sends the frame to the platform's authorisation endpoint.
    let cleared = 0;
    await context.route(`${platform.authEndpoint}**`, async (route) => {
      await context.clearCookies();
      cleared += 1;
      await route.continue();
    });
    const course = await context.newPage();
    await course.goto(platform.framedCoursePage({ sub: `framed-${Date.now().toString(36)}`, name: 'Fran Framed', role: 'Learner' }));
    await course.getByRole('button', { name: 'Open the book tool here' }).click();
    const tool = course.frame({ name: 'tool' });
    expect(tool).not.toBeNull();
    const appPrefix = `${appUrl.replace(/\/$/, '')}/lti?`;
    await expect
      .poll(async () => ((tool?.url() ?? '').startsWith(appPrefix) ? 'in the app' : `${tool?.url() ?? ''}: ${(await tool?.locator('body').innerText().catch(() => '')) ?? ''}`), { timeout: 20_000 })
      .toBe('in the app');
    expect(cleared).toBe(1);
    const landed = new URL(tool?.url() ?? '');
    expect(landed.searchParams.get('organisationId')).toBe(org.id);
    // What the tool said to the platform: capabilities first, then the two values put and read back, from its origin.
    const messages = platform.storageMessages();
    const toolOrigin = new URL(base).origin;
    expect(messages.every((m) => m.origin === toolOrigin), JSON.stringify(messages)).toBe(true);
    // (Counted, not ordered: two frames report them, each over its own connection.)
    expect(messages.map((m) => m.subject).sort()).toEqual(['lti.capabilities', 'lti.capabilities', 'lti.get_data', 'lti.get_data', 'lti.put_data', 'lti.put_data']);
    expect(new Set(messages.filter((m) => m.subject === 'lti.get_data').map((m) => m.key))).toEqual(new Set(messages.filter((m) => m.subject === 'lti.put_data').map((m) => m.key)));
    // The tool's state cookie never reached the launch.
    expect((await context.cookies(base)).filter((c) => c.name.startsWith('lti_state_'))).toEqual([]);
    // The app exchanges the token from its own origin, inside the frame.
    const signedIn = tool ? await exchangeLaunchToken(tool, base, landed.searchParams.get('token') ?? '') : undefined;
    expect(signedIn?.status).toBe(200);
    expect(signedIn?.body.user?.name).toBe('Fran Framed');

    // A platform whose storage does not answer: the tool says so and offers the new window.
    await course.goto(platform.framedCoursePage({ sub: `silent-${Date.now().toString(36)}`, name: 'Sid Silent', role: 'Learner' }, { storage: 'silent' }));
    await course.getByRole('button', { name: 'Open the book tool here' }).click();
    const silent = course.frameLocator('iframe[name="tool"]');
    await expect(silent.getByRole('alert')).toContainText('did not answer in time', { timeout: 15_000 });
    const again = silent.getByRole('link', { name: /Open .+ in a new window/ });
    await expect(again).toBeVisible();
    const retry = new URL((await again.getAttribute('href')) ?? '');
    expect(retry.pathname).toBe('/lti/1.3/login');
    expect(retry.searchParams.get('lti_storage_target')).toBeNull();

    // The same page at the top level (no platform around it) gives up at once; checked for accessibility there.
    const top = await context.newPage();
    const params = new URLSearchParams({ iss: platform.issuer, login_hint: 'nobody', target_link_uri: `${base}/lti/1.3/launch`, client_id: platform.clientId, lti_storage_target: '_parent' });
    await top.goto(`${base}/lti/1.3/login?${params}`);
    await expect(top.getByRole('alert')).toContainText('did not answer in time');
    await expect(top.getByRole('link', { name: /Open .+ in a new window/ })).toBeVisible();
    await checkAccessibility(top, test.info(), { label: 'platform storage not answered' });
  } finally {
    await context.close();
    await page.request.delete(`/api/organisations/${encodeURIComponent(org.id)}/lti/platforms/${encodeURIComponent(platformId)}`, { headers: { origin: base } });
    await platform.close();
  }
});
