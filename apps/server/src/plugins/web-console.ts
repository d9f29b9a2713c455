import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { routePreloadsSchema, type RoutePreloads } from '@quire/core';
import type { Env } from '../env.js';

/** Paths that belong to the APIs: an unknown path under one of these is a JSON 404, never the console. */
const API_PREFIXES = ['/api', '/auth', '/payments', '/analytics', '/assets', '/graphql', '/rest', '/identity', '/docs', '/healthz', '/readyz'];

const here = dirname(fileURLToPath(import.meta.url));

/** The built console folder: WEB_DIST_DIR, else apps/web/dist. */
function webDistDir(env: Pick<Env, 'WEB_DIST_DIR'>): string {
  return resolve(env.WEB_DIST_DIR ?? join(here, '../../../web/dist'));
}

function isApiPath(url: string): boolean {
  const path = url.split('?')[0] ?? '/';
  return API_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));
}

/** A browser navigation (deep link) that the console's router should answer. */
function wantsConsole(request: FastifyRequest): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    !isApiPath(request.url) &&
    (request.headers.accept ?? '').includes('text/html')
  );
}

/** The build's list of what each deep link's screen loads (apps/web/build/route-preloads.ts), or none if absent or unreadable. */
async function readRoutePreloads(dist: string): Promise<RoutePreloads | null> {
  const text = await readFile(join(dist, 'route-preloads.json'), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const parsed = routePreloadsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * index.html with the scripts and style sheets the path's screen needs named in its head, so the browser fetches them
 * beside the entry script instead of after it has run (docs/performance-log.md, "Route preloads"). Style sheets are
 * preloaded, not applied: the console applies them when the screen needs them, as without the hints.
 */
function withRoutePreloads(html: string, preloads: RoutePreloads | null, path: string): string {
  const route = preloads?.routes.find((r) => new RegExp(r.pattern).test(path));
  if (!route || route.scripts.length + route.styles.length === 0) return html;
  const links = [
    ...route.scripts.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`),
    ...route.styles.map((href) => `<link rel="preload" as="style" crossorigin href="${href}">`),
  ].join('\n    ');
  return html.replace('</head>', `  ${links}\n  </head>`);
}

const MISSING_BUILD_PAGE = (productName: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${productName}</title></head>
<body><main><h1>The console has not been built yet</h1>
<p>Run <code>npm run build</code>, then reload this page. The APIs are up: see <a href="/docs">/docs</a>.</p></main></body></html>`;

/**
 * Serves the built console and returns the fallback the not-found handler uses, so a deep link such as
 * /abc/teachers loads index.html and the console's router takes over.
 */
export async function registerWebConsole(
  app: FastifyInstance,
  env: Env,
): Promise<(request: FastifyRequest, reply: FastifyReply) => Promise<boolean>> {
  const dist = webDistDir(env);
  const indexFile = join(dist, 'index.html');
  const built = existsSync(indexFile);
  if (built) {
    // Hashed build files may be cached for a year; index.html never (it names the current hashes).
    // The build writes a .br and a .gz beside each script and style sheet (apps/web/vite.config.ts): sent as they are.
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: true,
      index: false,
      preCompressed: true,
      setHeaders: (reply, path) => {
        reply.header('cache-control', path.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable');
      },
    });
    app.get('/', { schema: { hide: true } }, (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
  } else {
    app.get('/', { schema: { hide: true } }, (_request, reply) => reply.type('text/html').send(MISSING_BUILD_PAGE(env.PRODUCT_NAME)));
  }

  return async (request, reply) => {
    if (!wantsConsole(request)) return false;
    if (built) {
      // Re-read so a rebuild while the server runs is picked up.
      const [html, preloads] = await Promise.all([readFile(indexFile, 'utf8').catch(() => null), readRoutePreloads(dist)]);
      if (html !== null) {
        const page = withRoutePreloads(html, preloads, request.url.split('?')[0] ?? '/');
        await reply.status(200).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page);
        return true;
      }
    }
    await reply.status(200).type('text/html; charset=utf-8').send(MISSING_BUILD_PAGE(env.PRODUCT_NAME));
    return true;
  };
}
