import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { chatSupportCspSources } from './chat-support.config.js';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps) await t.close();
});

const csp = (header: unknown) =>
  Object.fromEntries(String(header).split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));

describe('chat support configuration', () => {
  it('is off by default: no provider in the console configuration and nothing added to the CSP', async () => {
    const t = await buildTestApp();
    apps.push(t);
    const res = await t.app.inject({ url: '/api/console-config' });
    expect(res.json()).toMatchObject({ chatSupportProvider: null, chatSupportAppId: null, chatSupportScriptUrl: null });
    const policy = csp(res.headers['content-security-policy']);
    expect(policy['script-src']).toEqual(["'self'"]);
    expect(policy['connect-src']).toEqual(["'self'"]);
  });

  it('allows the configured provider and nothing more', async () => {
    const t = await buildTestApp({ CHAT_SUPPORT_PROVIDER: 'intercom', CHAT_SUPPORT_APP_ID: 'abc123' });
    apps.push(t);
    const res = await t.app.inject({ url: '/api/console-config' });
    expect(res.json()).toMatchObject({ chatSupportProvider: 'intercom', chatSupportAppId: 'abc123', chatSupportScriptUrl: 'https://widget.intercom.io/widget/abc123' });
    const policy = csp(res.headers['content-security-policy']);
    expect(policy['script-src']).toEqual(["'self'", 'https://app.intercom.io', 'https://widget.intercom.io', 'https://js.intercomcdn.com']);
    expect(policy['connect-src']).toContain('wss://nexus-websocket-a.intercom.io');
    expect(policy['default-src']).toEqual(["'self'"]);
  });

  it('with a script URL of its own, allows only that origin', () => {
    expect(chatSupportCspSources({ CHAT_SUPPORT_PROVIDER: 'intercom', CHAT_SUPPORT_APP_ID: 'x', CHAT_SUPPORT_SCRIPT_URL: 'http://localhost:4555/widget.js' }))
      .toEqual({ 'script-src': ['http://localhost:4555'], 'connect-src': ['http://localhost:4555'] });
    expect(chatSupportCspSources({ CHAT_SUPPORT_PROVIDER: 'none', CHAT_SUPPORT_APP_ID: 'x', CHAT_SUPPORT_SCRIPT_URL: undefined })).toEqual({});
  });
});
