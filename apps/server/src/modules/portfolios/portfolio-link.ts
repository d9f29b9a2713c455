import type { LinkCheck, LinkSigner } from '../access/signed-links.js';

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

/** What a portfolio link's signature binds, in order. */
const fieldsOf = (link: PortfolioLink) => [link.organisationId, link.exportId, link.userId, link.sessionId];

/** The signed download path of an export (relative to the organisation service). */
export function signedDownloadPath(links: LinkSigner<'portfolio-download'>, link: PortfolioLink): string {
  const query = new URLSearchParams({ user: link.userId, session: link.sessionId, expires: String(link.expires), signature: links.sign(fieldsOf(link), link.expires) });
  return `/rest/${encodeURIComponent(link.organisationId)}/student-portfolios-export/${encodeURIComponent(link.exportId)}/download?${query}`;
}

/** Checks a link's signature first (a forged link learns nothing), then its expiry. */
export function checkLink(links: LinkSigner<'portfolio-download'>, link: PortfolioLink, signature: string, nowMs = Date.now()): LinkCheck {
  return links.check(fieldsOf(link), link.expires, signature, nowMs);
}
