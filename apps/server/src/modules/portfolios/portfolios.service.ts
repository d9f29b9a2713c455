import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { portfolioMessages, type PortfolioDownload } from '@quire/core';
import type { DB } from '../../db/types.js';
import type { Env } from '../../env.js';
import { AppError, forbidden, notFound, tooEarly } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import { recordAudit } from '../access/audit.js';
import { requireOrgAccess } from '../access/org-access.js';
import { checkLink, signedDownloadPath } from './portfolio-link.js';
import { findLatestReadyExport, findPortfolioFlag, findReadyExport, readChunks } from './portfolios.repository.js';

/** Chunks (~1 MB each) read per query while streaming a download. */
const CHUNKS_PER_READ = 4;

export interface PortfolioDeps {
  db: Kysely<DB>;
  env: Env;
  /** Queues a build of the organisation's export (at most one waiting per organisation). */
  requestBuild: (organisationId: string) => Promise<void>;
}

const notEnabled = () => notFound(portfolioMessages.notEnabled, 'portfolios_not_enabled');

/**
 * GET /rest/{org}/student-portfolios-export/{id}: a signed link to the newest export. Admins only (the file
 * holds every student's data). {id} names the acting user (or 'latest'); 404 when portfolios are off; 425
 * until the first export is built, and then a build is queued in case none is on its way.
 */
export async function getPortfolioDownload(deps: PortfolioDeps, actor: Actor, organisationId: string, id: string, now = Date.now()): Promise<PortfolioDownload> {
  const { organisation } = await requireOrgAccess(deps.db, actor, organisationId, 'admin');
  if (id !== 'latest' && id !== actor.userId) throw forbidden('You can only request the export for yourself', 'acting_user_mismatch');
  if (!organisation.student_portfolios) throw notEnabled();
  const latest = await findLatestReadyExport(deps.db, organisationId);
  if (!latest) {
    await deps.requestBuild(organisationId);
    throw tooEarly(portfolioMessages.noExportYet, 'no_export_yet');
  }
  const refreshIn = deps.env.PORTFOLIO_LINK_TTL_SECONDS;
  const expires = Math.floor(now / 1000) + refreshIn;
  return {
    url: signedDownloadPath(deps.env, { organisationId, exportId: latest.id, userId: actor.userId, expires }),
    generatedAt: new Date(latest.generated_at).toISOString(),
    refreshIn,
  };
}

export interface DownloadFile {
  filename: string;
  byteSize: number;
  body: Readable;
}

/**
 * The file behind a signed link, streamed a few chunks at a time. The signature binds organisation, export,
 * user and expiry, so a link opens only its own organisation's file and only until it expires.
 */
export async function openPortfolioDownload(
  deps: Pick<PortfolioDeps, 'db' | 'env'>,
  link: { organisationId: string; exportId: string; userId: string; expires: number; signature: string },
): Promise<DownloadFile> {
  const check = checkLink(deps.env, link, link.signature);
  if (check === 'forged') throw forbidden('This download link is not valid', 'link_invalid');
  if (check === 'expired') throw new AppError(410, 'link_expired', 'This download link has expired. Open Portfolios again for a new one.');
  const flag = await findPortfolioFlag(deps.db, link.organisationId);
  if (!flag?.enabled) throw notEnabled();
  const file = await findReadyExport(deps.db, link.organisationId, link.exportId);
  if (!file) throw notFound('This export is no longer available. Open Portfolios again for the newest one.', 'export_gone');
  const user = await deps.db.selectFrom('user').select(['email', 'name']).where('id', '=', link.userId).executeTakeFirst();
  await recordAudit(deps.db, { userId: link.userId, email: user?.email ?? '', displayName: user?.name ?? '', emailVerified: true }, {
    organisationId: link.organisationId,
    action: 'student_portfolios.download',
    targetType: 'portfolio_export',
    targetIds: [file.id],
  }).catch(() => undefined);
  const { db } = deps;
  async function* chunks() {
    for (let seq = 0; seq < file!.chunk_count; seq += CHUNKS_PER_READ) {
      const batch = await readChunks(db, link.organisationId, link.exportId, seq, CHUNKS_PER_READ);
      if (!batch.length) throw new Error('Export chunks are missing');
      for (const data of batch) yield data;
    }
  }
  const day = new Date(file.generated_at).toISOString().slice(0, 10);
  const slug = flag.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'organisation';
  return { filename: `student-portfolios-${slug}-${day}.csv`, byteSize: Number(file.byte_size), body: Readable.from(chunks(), { objectMode: false }) };
}
