import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import pg, { type Pool } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { type PortfolioDownload } from '@quire/core';
import { CopyBinaryField } from '../../db/copy-binary-field.js';
import type { DB } from '../../db/types.js';
import type { Env } from '../../env.js';
import { appError } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import type { LinkSigner } from '../access/signed-links.js';
import { recordAudit } from '../access/audit.js';
import { liveSessionAccessLevel, requireOrgAccess } from '../access/org-access.js';
import { checkLink, signedDownloadPath } from './portfolio-link.js';
import { copyChunksStatement, findLatestReadyExport, findPortfolioFlag, findReadyExport, readChunk } from './portfolios.repository.js';

/**
 * Downloads streaming at once from one server process. On PostgreSQL each holds a connection of its own for as
 * long as the client takes to read the file (outside the pool, so requests never wait behind a slow download);
 * the cap keeps a burst of downloads (or one link opened many times) from using up the database's connections.
 * @internal
 */
export const MAX_CONCURRENT_DOWNLOADS = 4;
let downloadsStreaming = 0;

export interface PortfolioDeps {
  db: Kysely<DB>;
  /** PostgreSQL only: the pool whose settings a download's own connection uses. */
  pool?: Pool;
  env: Env;
  /** Signs and checks the download links (the `portfolio-download` purpose). */
  links: LinkSigner<'portfolio-download'>;
  /** Queues a build of the organisation's export (at most one waiting per organisation). */
  requestBuild: (organisationId: string) => Promise<void>;
}

const notEnabled = () => appError('portfolios_not_enabled');

/**
 * GET /rest/{org}/student-portfolios-export/{id}: a signed link to the newest export. Admins only (the file
 * holds every student's data). {id} names the acting user (or 'latest'); 404 when portfolios are off; 425
 * until the first export is built, and then a build is queued in case none is on its way.
 */
export async function getPortfolioDownload(deps: PortfolioDeps, actor: Actor, organisationId: string, id: string, now = Date.now()): Promise<PortfolioDownload> {
  const { organisation } = await requireOrgAccess(deps.db, actor, organisationId, 'admin');
  if (id !== 'latest' && id !== actor.userId) throw appError('not_own_export');
  if (!organisation.student_portfolios) throw notEnabled();
  const latest = await findLatestReadyExport(deps.db, organisationId);
  if (!latest) {
    await deps.requestBuild(organisationId);
    throw appError('no_export_yet');
  }
  const refreshIn = deps.env.PORTFOLIO_LINK_TTL_SECONDS;
  const expires = Math.floor(now / 1000) + refreshIn;
  return {
    url: signedDownloadPath(deps.links, { organisationId, exportId: latest.id, userId: actor.userId, sessionId: actor.sessionId ?? '', expires }),
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
 * user, session and expiry, so a link opens only its own organisation's file, only until it expires, and only
 * while the session that asked for it lives and its user is still an admin there (one statement, no cookie needed).
 */
export async function openPortfolioDownload(
  deps: Pick<PortfolioDeps, 'db' | 'pool' | 'links'>,
  link: { organisationId: string; exportId: string; userId: string; sessionId: string; expires: number; signature: string },
): Promise<DownloadFile> {
  const check = checkLink(deps.links, link, link.signature);
  if (check === 'forged') throw appError('link_invalid');
  if (check === 'expired') throw appError('link_expired');
  if ((await liveSessionAccessLevel(deps.db, link.sessionId, link.organisationId, link.userId)) !== 'admin') throw appError('link_session_ended');
  const flag = await findPortfolioFlag(deps.db, link.organisationId);
  if (!flag?.enabled) throw notEnabled();
  const file = await findReadyExport(deps.db, link.organisationId, link.exportId);
  if (!file) throw appError('export_gone');
  const user = await deps.db.selectFrom('user').select(['email', 'name']).where('id', '=', link.userId).executeTakeFirst();
  await recordAudit(deps.db, { userId: link.userId, email: user?.email ?? '', displayName: user?.name ?? '', emailVerified: true }, {
    organisationId: link.organisationId,
    action: 'student_portfolios.download',
    targetType: 'portfolio_export',
    targetIds: [file.id],
  }).catch(() => undefined);
  if (downloadsStreaming >= MAX_CONCURRENT_DOWNLOADS) {
    throw appError('downloads_busy');
  }
  downloadsStreaming += 1;
  let body: Readable;
  try {
    body = deps.pool
      ? await streamChunks(deps.pool, copyChunksStatement(deps.db, link.organisationId, link.exportId))
      : Readable.from(chunksOneByOne(deps.db, link.organisationId, link.exportId, file.chunk_count), { objectMode: false });
  } catch (error) {
    downloadsStreaming -= 1;
    throw error;
  }
  let counted = true;
  body.once('close', () => {
    if (counted) downloadsStreaming -= 1;
    counted = false;
  });
  const day = new Date(file.generated_at).toISOString().slice(0, 10);
  const slug = flag.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'organisation';
  return { filename: `student-portfolios-${slug}-${day}.csv`, byteSize: Number(file.byte_size), body };
}

/** PGlite: one chunk per query, handed on without a copy. */
async function* chunksOneByOne(db: Kysely<DB>, organisationId: string, exportId: string, chunkCount: number) {
  for (let seq = 0; seq < chunkCount; seq += 1) {
    const data = await readChunk(db, organisationId, exportId, seq);
    if (!data) throw new Error('Export chunks are missing');
    yield data;
  }
}

/**
 * PostgreSQL: the chunks in order out of one `COPY … TO STDOUT (FORMAT binary)` on a connection of the download's
 * own, their bytes passed on as COPY delivers them (CopyBinaryField): no hex text, no whole chunk in memory, and
 * PostgreSQL waits in its socket while the client is slow. The connection closes at the end, and is cut when the
 * client goes away mid-file (a COPY cannot be stopped cleanly, and PostgreSQL ends it when its socket closes).
 */
async function streamChunks(pool: Pool, statement: string): Promise<Readable> {
  const client = new pg.Client(pool.options);
  // A connection the server ends mid-download fails the COPY below; without a listener Node would crash.
  client.on('error', () => undefined);
  await client.connect();
  let closed = false;
  const close = (cut: boolean) => {
    if (closed) return;
    closed = true;
    if (cut) client.connection.stream.destroy();
    client.end().catch(() => undefined);
  };
  const copy = client.query(copyTo(statement));
  const body = new CopyBinaryField();
  copy.on('error', (error) => {
    close(true);
    body.destroy(error);
  });
  copy.on('end', () => close(false));
  body.on('close', () => {
    if (!copy.readableEnded) {
      copy.destroy();
      close(true);
    }
  });
  return copy.pipe(body);
}
