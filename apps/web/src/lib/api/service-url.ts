import { env, type ServiceUrls } from '../../config/env.js';

/**
 * A URL on one of the services of spec §7: serviceUrl('payments', '/v1/admin/organisations', orgId, 'members', 'teachers').
 * String segments after the path are URL-encoded, so ids and e-mails are safe.
 */
export function serviceUrl(service: keyof ServiceUrls, path: string, ...segments: Array<string | number>): string {
  const encoded = segments.map((s) => `/${encodeURIComponent(String(s))}`).join('');
  const prefix = path === '' || path.startsWith('/') ? path : `/${path}`;
  return `${env[service]}${prefix}${encoded}`;
}
