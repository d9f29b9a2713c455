import { constants } from 'node:zlib';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  bookCountsSchema,
  importTeachersBodySchema,
  importTeachersResultSchema,
  memberParamsSchema,
  membersPageSchema,
  organisationParamsSchema,
  teachersExportQuerySchema,
  teachersListQuerySchema,
} from '@quire/core';
import { requireActor, requireSessionRef } from '../access/actor.js';
import { withIdempotency } from '../access/idempotency.js';
import { textResponse } from '../../plugins/api-docs.js';
import { importTeachers } from './import-teachers.service.js';
import { getBookCounts, listTeachers } from './members.service.js';
import { exportTeachersCsv } from './teachers-export.service.js';

const PREFIX = '/payments/v1/admin/organisations/:orgId';

/** Teachers of an organisation: lists, import, book counts and the CSV export (spec §7; docs/teachers-api.md). */
export const membersRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const [status, path, summary] of [
    ['active', 'teachers', 'Active teachers'],
    ['inactive', 'inactive-teachers', 'Removed (inactive) teachers'],
  ] as const) {
    app.get(
      `${PREFIX}/members/${path}`,
      {
        // The session is read in the page's own statement (one round trip: docs/performance-log.md).
        config: { sessionInStatement: true },
        schema: { tags: ['teachers'], summary, params: organisationParamsSchema, querystring: teachersListQuerySchema, response: { 200: membersPageSchema } },
      },
      async (request) => listTeachers(app.db, requireSessionRef(request), { organisationId: request.params.orgId, status, ...request.query }),
    );
  }

  app.get(
    `${PREFIX}/members/teachers/export.csv`,
    {
      // A large file streamed as PostgreSQL writes it: compressed at the fastest level, which keeps most of the
      // saving on the wire for a fraction of the CPU (the default level took a third of the export's time:
      // docs/performance-log.md).
      compress: { zlibOptions: { level: constants.Z_BEST_SPEED }, brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } } },
      schema: {
        tags: ['teachers'],
        summary: 'Teachers as CSV (streamed)',
        params: organisationParamsSchema,
        querystring: teachersExportQuerySchema,
        response: { 200: textResponse('text/csv', 'RFC 4180 CSV, UTF-8 with a BOM, CRLF line ends (docs/teachers-api.md)') },
      },
    },
    async (request, reply) => {
      const stream = await exportTeachersCsv(app.database, requireActor(request), { organisationId: request.params.orgId, ...request.query });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="teachers.csv"')
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );

  app.post(
    `${PREFIX}/members/import/teachers`,
    {
      schema: {
        tags: ['teachers'],
        summary: 'Import teachers by e-mail',
        params: organisationParamsSchema,
        body: importTeachersBodySchema,
        response: { 200: importTeachersResultSchema },
      },
    },
    async (request) => {
      const body = Array.isArray(request.body) ? { emails: request.body } : request.body;
      const actor = requireActor(request);
      return withIdempotency(app.db, request, actor, () =>
        importTeachers(app.db, actor, {
          organisationId: request.params.orgId,
          emails: body.emails,
          licenses: body.licenses,
          providerEmailDomain: app.env.PROVIDER_EMAIL_DOMAIN,
        }),
      );
    },
  );

  app.get(
    `${PREFIX}/members/:teacherId/book-counts`,
    {
      schema: {
        tags: ['teachers'],
        summary: "Books in a teacher's libraries",
        params: memberParamsSchema,
        response: { 200: bookCountsSchema },
      },
    },
    async (request) => getBookCounts(app.db, requireActor(request), { organisationId: request.params.orgId, memberId: request.params.teacherId }),
  );
};
