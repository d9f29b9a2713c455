import { publicUrl, type Env } from '../../env.js';

/** Vite's development server, which proxies the APIs to this server. */
const DEVELOPMENT_ORIGINS = ['http://localhost:5173', 'http://127.0.0.1:5173'];

/** Origins allowed to send state-changing requests: PUBLIC_URL's, TRUSTED_ORIGINS, and Vite in development. */
export function trustedOrigins(env: Env): string[] {
  const extra = env.TRUSTED_ORIGINS.split(',').map((s) => s.trim().replace(/\/$/, '')).filter(Boolean);
  const dev = env.NODE_ENV === 'development' ? DEVELOPMENT_ORIGINS : [];
  return [...new Set([new URL(publicUrl(env)).origin, ...extra, ...dev])];
}
