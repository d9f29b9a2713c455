import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import compress from '@fastify/compress';
import { chatSupportCspSources } from '../modules/chat-support/chat-support.config.js';

/**
 * Security headers and compression. The CSP fits the Vite-built React + Mantine console: Mantine
 * injects style tags (style-src 'unsafe-inline'), avatars and covers may be data: or blob: URLs,
 * and the console only calls its own origin.
 */
export const securityPlugin = fp(async (app) => {
  // The configured chat-support provider's sources, and nothing when chat support is off (modules/chat-support).
  const chat = chatSupportCspSources(app.env);
  const withChat = (directive: string, sources: string[]) => [...sources, ...(chat[directive] ?? [])];
  // Helmet's middleware, built ONCE: @fastify/helmet rebuilt it (and parsed the CSP) on every request, which was
  // a measurable share of a small answer's CPU time (docs/performance-log.md, "Analytics"). The headers are the same.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        'script-src': withChat('script-src', ["'self'"]),
        'style-src': withChat('style-src', ["'self'", "'unsafe-inline'"]),
        'img-src': withChat('img-src', ["'self'", 'data:', 'blob:']),
        'font-src': withChat('font-src', ["'self'", 'data:']),
        'connect-src': withChat('connect-src', ["'self'"]),
        'frame-ancestors': ["'self'"],
        'object-src': ["'none'"],
        ...(chat['frame-src'] ? { 'frame-src': withChat('frame-src', ["'self'"]) } : {}),
        ...(chat['media-src'] ? { 'media-src': withChat('media-src', ["'self'"]) } : {}),
        'base-uri': ["'self'"],
        'form-action': withChat('form-action', ["'self'"]),
        // Plain-HTTP installs (a school's LAN) must keep loading their own scripts.
        'upgrade-insecure-requests': null,
      },
    },
    // Same-origin forms (the password-reset page) must send a real Origin, which the CSRF check requires;
    // 'no-referrer' would make Chromium send `Origin: null`. Nothing leaks to other sites.
    referrerPolicy: { policy: 'same-origin' },
    // OIDC sign-in pop-ups need their opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    // Covers and avatars may be embedded by the product's other sites.
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
  app.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw as IncomingMessage, reply.raw as ServerResponse, (error?: unknown) => done(error as Error | undefined));
  });
  await app.register(compress, { global: true, threshold: 1024 });
});
