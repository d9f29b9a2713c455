import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import compress from '@fastify/compress';

/**
 * Security headers and compression. The CSP fits the Vite-built React + Mantine console: Mantine
 * injects style tags (style-src 'unsafe-inline'), avatars and covers may be data: or blob: URLs,
 * and the console only calls its own origin.
 */
export const securityPlugin = fp(async (app) => {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'frame-ancestors': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
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
  await app.register(compress, { global: true, threshold: 1024 });
});
