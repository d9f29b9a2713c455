import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { expect, test } from '../../fixtures/auth.js';
import { EmailSignInPage, OrganisationPickerPage } from '../../pages/auth/sign-in-pages.js';
import { demoAdmin } from '../../support/env.js';
import { checkAccessibility } from '../../support/axe.js';
import { E2E_DATA_ROOT, findFreePort, startServer, type StartedServer } from '../../support/server.js';

/** Signs the demo admin in by e-mail on the server at baseUrl and opens the organisation chosen in the picker. */
async function signInTo(page: Page, baseUrl: string, organisation: string): Promise<void> {
  const emailPage = new EmailSignInPage(page, test.info());
  await page.goto(`${baseUrl}${emailPage.path}`);
  await emailPage.waitUntilReady();
  await emailPage.signIn(demoAdmin.email, demoAdmin.password);
  const picker = new OrganisationPickerPage(page, test.info());
  await picker.waitUntilReady();
  await picker.choose(organisation);
  await picker.submitButton().click();
}

test.describe('Chat support off (the default)', () => {
  test('no widget and no request', async ({ page, organisation }) => {
    const chatRequests: string[] = [];
    page.on('request', (r) => {
      if (/identity-verification|intercom/i.test(r.url())) chatRequests.push(r.url());
    });
    await page.goto(`/${organisation.id}`);
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(chatRequests).toEqual([]);
    expect(await page.evaluate(() => typeof (window as { Intercom?: unknown }).Intercom)).toBe('undefined');
    await expect(page.locator('script[data-chat-support]')).toHaveCount(0);
  });
});

interface RecordedCall {
  command: string;
  payload?: { user_id?: string; user_hash?: string; email?: string; company?: { id: string; name: string } };
}

/**
 * A stand-in for the provider's widget script: it takes over window.Intercom as the real one does (replaying
 * the queue the stub collected) and reports every call to this little server. On boot it draws a launcher where
 * Intercom's default one sits (48 px, 20 px from the bottom and right edges, above the page), and removes it on
 * shutdown.
 */
const STAND_IN = (origin: string) => `(() => {
  const queued = (window.Intercom && window.Intercom.q) || [];
  const record = (args) => fetch('${origin}/calls', { method: 'POST', body: JSON.stringify({ command: args[0], payload: args[1] }), keepalive: true });
  const launcher = () => {
    if (document.querySelector('[data-stand-in-launcher]')) return;
    const button = document.createElement('button');
    button.setAttribute('data-stand-in-launcher', '');
    button.setAttribute('aria-label', 'Open chat');
    button.style.cssText = 'position:fixed;right:20px;bottom:20px;width:48px;height:48px;border-radius:50%;border:0;background:#1c5aa6;z-index:2147483000';
    document.body.appendChild(button);
  };
  const act = (args) => {
    if (args[0] === 'boot') launcher();
    if (args[0] === 'shutdown') document.querySelector('[data-stand-in-launcher]')?.remove();
    record(args);
  };
  window.Intercom = function () { act([...arguments]); };
  for (const args of queued) act([...args]);
})();`;

test.describe('Chat support with a provider', () => {
  test.describe.configure({ mode: 'serial', timeout: 240_000 });
  let standIn: Server;
  let quire: StartedServer;
  let calls: RecordedCall[] = [];

  test.beforeAll(async () => {
    // A second server with the demo district: slow to start on a busy machine.
    test.setTimeout(240_000);
    standIn = createServer((req, res) => {
      res.setHeader('access-control-allow-origin', '*');
      if (req.url === '/widget.js') {
        res.setHeader('content-type', 'text/javascript');
        res.end(STAND_IN(`http://localhost:${(standIn.address() as AddressInfo).port}`));
        return;
      }
      if (req.url === '/calls' && req.method === 'POST') {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          calls.push(JSON.parse(body) as RecordedCall);
          res.end();
        });
        return;
      }
      res.statusCode = 404;
      res.end();
    });
    await new Promise<void>((resolve) => standIn.listen(0, 'localhost', resolve));
    const standInUrl = `http://localhost:${(standIn.address() as AddressInfo).port}`;
    quire = await startServer({
      port: await findFreePort(),
      logFile: join(E2E_DATA_ROOT, 'chat-server.log'),
      env: {
        NODE_ENV: 'development',
        DATA_DIR: join(E2E_DATA_ROOT, 'chat-server'),
        DATABASE_URL: '',
        DEMO_SEED: 'true',
        DEMO_TEACHERS: '20',
        DEMO_ADMIN_EMAIL: demoAdmin.email,
        DEMO_ADMIN_PASSWORD: demoAdmin.password,
        LOG_LEVEL: 'warn',
        CHAT_SUPPORT_PROVIDER: 'intercom',
        CHAT_SUPPORT_APP_ID: 'standin1',
        CHAT_SUPPORT_SECRET: 'chat-secret-for-tests',
        CHAT_SUPPORT_SCRIPT_URL: `${standInUrl}/widget.js`,
      },
    });
  });

  test.afterAll(async () => {
    await quire?.stop();
    await new Promise((resolve) => standIn?.close(resolve));
  });

  test('boots after sign-in with the user and organisation, updates on a switch, shuts down on sign-out', async ({ browser }) => {
    calls = [];
    const context = await browser.newContext({ baseURL: quire.url });
    const page = await context.newPage();
    await signInTo(page, quire.url, 'Oakwood Elementary School');
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();

    await expect.poll(() => calls.map((c) => c.command)).toEqual(['boot']);
    const boot = calls[0]!.payload!;
    expect(boot.email).toBe(demoAdmin.email);
    expect(boot.user_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(boot.company?.name).toBe('Oakwood Elementary School');
    const oakwood = boot.company!.id;
    await expect(page).toHaveURL(new RegExp(`/${oakwood}`));
    await checkAccessibility(page, test.info(), { label: 'home with chat support booted' });

    // Switching organisation updates the widget.
    await page.getByRole('button', { name: /choose organisation/ }).click();
    await page.getByRole('menuitem', { name: 'Maple Grove High School' }).click();
    await expect.poll(() => calls.map((c) => c.command)).toEqual(['boot', 'update']);
    expect(calls[1]!.payload?.company?.name).toBe('Maple Grove High School');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => calls.map((c) => c.command)).toEqual(['boot', 'update', 'shutdown']);
    await context.close();
  });

  test("the launcher covers none of the Teachers page's pager at 1280 px", async ({ browser }) => {
    const context = await browser.newContext({ baseURL: quire.url, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signInTo(page, quire.url, 'Maple Grove High School'); // the organisation with more than a page of teachers
    await page.getByRole('link', { name: 'Teachers' }).first().click();
    const pager = page.getByRole('navigation', { name: 'Pages' });
    await expect(pager).toBeVisible({ timeout: 20_000 });
    const launcher = page.getByRole('button', { name: 'Open chat' });
    await expect(launcher).toBeVisible();
    // Scrolled as far as the page goes, the last controls are where they come to rest.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const chat = await launcher.boundingBox();
    if (!chat) throw new Error('the launcher has a box');
    const buttons = await pager.getByRole('button').all();
    expect(buttons.length).toBeGreaterThan(1);
    for (const button of buttons) {
      const box = await button.boundingBox();
      if (!box) throw new Error('a pager button has a box');
      const overlap = box.x < chat.x + chat.width && chat.x < box.x + box.width && box.y < chat.y + chat.height && chat.y < box.y + box.height;
      expect(overlap, `${(await button.getAttribute('aria-label')) ?? await button.textContent()} is under the chat launcher`).toBe(false);
    }
    await context.close();
  });
});
