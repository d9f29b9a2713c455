import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Env } from '../../env.js';

/** Used only when AUTH_SECRET is unset, which production refuses (env.ts). */
const DEVELOPMENT_SECRET = 'quire-development-secret-do-not-use-in-production';

export interface PortfolioLink {
  organisationId: string;
  exportId: string;
  /** The user the link was issued to, recorded in the audit trail when it is used. */
  userId: string;
  /** The id of the session that asked for it: the link works while that session lives and its user is an admin. */
  sessionId: string;
  /** Unix seconds. */
  expires: number;
}

function key(env: Pick<Env, 'AUTH_SECRET'>): Buffer {
  // A key of its own, so a portfolio signature can never be replayed as another kind of signed value.
  return createHmac('sha256', env.AUTH_SECRET ?? DEVELOPMENT_SECRET).update('student-portfolios-export').digest();
}

function mac(env: Pick<Env, 'AUTH_SECRET'>, link: PortfolioLink): Buffer {
  return createHmac('sha256', key(env)).update(`v2\n${link.organisationId}\n${link.exportId}\n${link.userId}\n${link.sessionId}\n${link.expires}`).digest();
}

/** The signed download path of an export (relative to the organisation service). */
export function signedDownloadPath(env: Pick<Env, 'AUTH_SECRET'>, link: PortfolioLink): string {
  const query = new URLSearchParams({ user: link.userId, session: link.sessionId, expires: String(link.expires), signature: mac(env, link).toString('base64url') });
  return `/rest/${encodeURIComponent(link.organisationId)}/student-portfolios-export/${encodeURIComponent(link.exportId)}/download?${query}`;
}

export type LinkCheck = 'valid' | 'forged' | 'expired';

/** Checks a link's signature first (a forged link learns nothing), then its expiry. */
export function checkLink(env: Pick<Env, 'AUTH_SECRET'>, link: PortfolioLink, signature: string, nowMs = Date.now()): LinkCheck {
  const expected = mac(env, link);
  const actual = Buffer.from(signature, 'base64url');
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return 'forged';
  return link.expires * 1000 <= nowMs ? 'expired' : 'valid';
}
