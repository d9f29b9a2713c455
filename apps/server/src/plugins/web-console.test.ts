import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testEnv, type TestApp } from '../../test/helper.js';
import { errorHandlerPlugin } from './error-handler.js';
import { registerWebConsole } from './web-console.js';

const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const INDEX = '<!doctype html><html><head><title>Console</title></head><body><div id="root"></div></body></html>';

describe('serving the built console', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'quire-dist-'));
    mkdirSync(join(dist, 'static'));
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'static', 'app-1234.js'), `console.log(${JSON.stringify('x'.repeat(4000))});`);
    // The build's Brotli copy (apps/web/vite.config.ts); its content differs so the test can tell which was sent.
    writeFileSync(join(dist, 'static', 'app-1234.js.br'), brotliCompressSync(Buffer.from('console.log("the build\'s copy");')));
    t = await buildTestApp({ WEB_DIST_DIR: dist });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('loads the console at the root', async () => {
    const res = await t.app.inject({ url: '/', headers: { accept: HTML } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(INDEX);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('answers a deep link with index.html so the console router can take over', async () => {
    for (const url of ['/abc/teachers', '/abc/teachers?tab=inactive', '/sign-in', '/org-1/licenses/']) {
      const res = await t.app.inject({ url, headers: { accept: HTML } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toBe(INDEX);
    }
  });

  it('serves build files with a long cache', async () => {
    const res = await t.app.inject({ url: '/static/app-1234.js', headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('javascript');
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.headers['content-encoding']).toBe('gzip');
  });

  it("sends the build's compressed copy of a file as it is, and the file itself to a browser that takes neither", async () => {
    const br = await t.app.inject({ url: '/static/app-1234.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe('console.log("the build\'s copy");');

    const plain = await t.app.inject({ url: '/static/app-1234.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(`console.log(${JSON.stringify('x'.repeat(4000))});`);
  });

  it('does not answer API paths, non-GET requests or non-HTML requests with the console', async () => {
    const cases = [
      // One segment under /api is the spec's GET {api}/{teacherId}, so the unknown path has several.
      { method: 'GET' as const, url: '/api/v9/unknown/path/here', accept: HTML },
      { method: 'GET' as const, url: '/payments/unknown/thing', accept: HTML },
      { method: 'GET' as const, url: '/static/missing.js', accept: '*/*' },
      { method: 'GET' as const, url: '/abc/teachers', accept: 'application/json' },
      { method: 'DELETE' as const, url: '/abc/teachers', accept: HTML },
    ];
    for (const c of cases) {
      const res = await t.app.inject({ method: c.method, url: c.url, headers: { accept: c.accept, origin: 'http://localhost:3100' } });
      expect(res.statusCode, `${c.method} ${c.url}`).toBe(404);
      expect(res.json(), `${c.method} ${c.url}`).toMatchObject({ code: 'not_found' });
    }
  });
});

describe('when the console was not built', () => {
  it('says how to build it instead of failing', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'quire-nodist-'));
    const env = testEnv({ WEB_DIST_DIR: empty });
    const app = Fastify();
    const fallback = await registerWebConsole(app, env);
    await app.register(errorHandlerPlugin, { notFoundFallback: fallback });
    try {
      for (const url of ['/', '/abc/teachers']) {
        const res = await app.inject({ url, headers: { accept: HTML } });
        expect(res.statusCode, url).toBe(200);
        expect(res.body).toContain('npm run build');
      }
      const api = await app.inject({ url: '/api/x', headers: { accept: HTML } });
      expect(api.statusCode).toBe(404);
    } finally {
      await app.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe("naming a deep link's files in the page", () => {
  const preloads = {
    routes: [
      { pattern: '^/sign-in/?$', scripts: [], styles: [] },
      { pattern: '^/sign-in/', scripts: ['/static/sign-in-screens-1.js'], styles: [] },
      { pattern: '^/[^/]+/teachers/?$', scripts: ['/static/shell-1.js', '/static/teachers-1.js'], styles: ['/static/styles-1.css'] },
    ],
  };
  const withFiles = async (files: Record<string, string>, run: (app: ReturnType<typeof Fastify>) => Promise<void>) => {
    const dist = mkdtempSync(join(tmpdir(), 'quire-preloads-'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dist, name), text);
    const app = Fastify();
    const fallback = await registerWebConsole(app, testEnv({ WEB_DIST_DIR: dist }));
    await app.register(errorHandlerPlugin, { notFoundFallback: fallback });
    try {
      await run(app);
    } finally {
      await app.close();
      rmSync(dist, { recursive: true, force: true });
    }
  };

  it("names the screen's scripts and style sheets in the head, and nothing on a path without any", async () => {
    await withFiles({ 'index.html': INDEX, 'route-preloads.json': JSON.stringify(preloads) }, async (app) => {
      const teachers = await app.inject({ url: '/org%201/teachers?page=2', headers: { accept: HTML } });
      expect(teachers.statusCode).toBe(200);
      const head = teachers.body.slice(0, teachers.body.indexOf('</head>'));
      expect(head).toContain('<link rel="modulepreload" crossorigin href="/static/shell-1.js">');
      expect(head).toContain('<link rel="modulepreload" crossorigin href="/static/teachers-1.js">');
      expect(head).toContain('<link rel="preload" as="style" crossorigin href="/static/styles-1.css">');
      expect(teachers.body.replace(/\s*<link[^>]*>/g, '').replace(/\s+/g, '')).toBe(INDEX.replace(/\s+/g, ''));

      const email = await app.inject({ url: '/sign-in/email/a%40b.example', headers: { accept: HTML } });
      expect(email.body).toContain('href="/static/sign-in-screens-1.js"');
      expect(email.body).not.toContain('teachers-1.js');

      for (const url of ['/sign-in', '/org/unknown-screen/x']) {
        const res = await app.inject({ url, headers: { accept: HTML } });
        expect(res.body, url).toBe(INDEX);
      }
    });
  });

  it('sends index.html as it is when the list is missing or is not what the build writes', async () => {
    const broken = [
      'not json',
      JSON.stringify({ routes: [{ pattern: '^/', scripts: ['https://elsewhere.example/x.js'], styles: [] }] }),
      JSON.stringify({ routes: [{ pattern: '^/', scripts: ['/static/a.js"><script>alert(1)</script>'], styles: [] }] }),
    ];
    await withFiles({ 'index.html': INDEX }, async (app) => {
      expect((await app.inject({ url: '/org/teachers', headers: { accept: HTML } })).body).toBe(INDEX);
    });
    for (const text of broken) {
      await withFiles({ 'index.html': INDEX, 'route-preloads.json': text }, async (app) => {
        expect((await app.inject({ url: '/org/teachers', headers: { accept: HTML } })).body, text).toBe(INDEX);
      });
    }
  });
});
