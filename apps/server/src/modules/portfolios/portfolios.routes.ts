import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  portfolioDownloadQuerySchema, portfolioDownloadSchema, portfolioExportParamsSchema, portfolioFileParamsSchema,
} from '@quire/core';
import { textResponse } from '../../plugins/api-docs.js';
import { requireActor } from '../access/actor.js';
import { getPortfolioDownload, openPortfolioDownload, type PortfolioDeps } from './portfolios.service.js';

const tags = ['student portfolios'];

/** The student-portfolio export call of spec §7 and its signed download link (docs/portfolios.md). */
export function portfoliosRoutes(deps: PortfolioDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/rest/:org/student-portfolios-export/:id',
      {
        schema: {
          tags,
          summary: 'A signed link to the newest student-portfolio CSV (404 when portfolios are off, 425 before the first export)',
          params: portfolioExportParamsSchema,
          response: { 200: portfolioDownloadSchema },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return getPortfolioDownload(deps, requireActor(request), request.params.org, request.params.id);
      },
    );

    app.get(
      '/rest/:org/student-portfolios-export/:exportId/download',
      {
        // Opened by the signed link, which names the session that asked for it: the cookie is not looked up.
        config: { signedLink: 'portfolio-download' },
        schema: {
          tags,
          summary: 'The student-portfolio CSV behind a signed link (RFC 4180, UTF-8 with BOM), streamed',
          params: portfolioFileParamsSchema,
          querystring: portfolioDownloadQuerySchema,
          response: { 200: textResponse('text/csv', 'The export (docs/portfolios.md describes the columns)') },
        },
      },
      async (request, reply) => {
        const file = await openPortfolioDownload(deps, {
          organisationId: request.params.org,
          exportId: request.params.exportId,
          userId: request.query.user,
          sessionId: request.query.session,
          expires: request.query.expires,
          signature: request.query.signature,
        });
        reply
          .header('cache-control', 'private, no-store')
          .header('content-disposition', `attachment; filename="${file.filename}"`)
          .header('x-content-type-options', 'nosniff')
          .type('text/csv; charset=utf-8');
        if (!request.headers['accept-encoding']) reply.header('content-length', String(file.byteSize));
        return reply.send(file.body);
      },
    );
  };
}
