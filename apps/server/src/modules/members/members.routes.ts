import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireActor } from '../access/actor.js';
import { withIdempotency } from '../access/idempotency.js';
import { importTeachers } from './import-teachers.service.js';
import { exportQuerySchema, importBodySchema, listQuerySchema, orgParamsSchema, teacherParamsSchema } from './members.schemas.js';
import { getBookCounts, listTeachers } from './members.service.js';
import { exportTeachersCsv } from './teachers-export.service.js';

const PREFIX = '/payments/v1/admin/organisations/:orgId';

/** Teachers of an organisation: lists, import, book counts and the CSV export (spec §7). */
export const membersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    `${PREFIX}/members/teachers`,
    { schema: { tags: ['teachers'], summary: 'Active teachers', params: orgParamsSchema, querystring: listQuerySchema } },
    async (request) => listTeachers(app.db, requireActor(request), { organisationId: request.params.orgId, status: 'active', ...request.query }),
  );

  app.get(
    `${PREFIX}/members/inactive-teachers`,
    { schema: { tags: ['teachers'], summary: 'Removed (inactive) teachers', params: orgParamsSchema, querystring: listQuerySchema } },
    async (request) => listTeachers(app.db, requireActor(request), { organisationId: request.params.orgId, status: 'inactive', ...request.query }),
  );

  app.get(
    `${PREFIX}/members/teachers/export.csv`,
    { schema: { tags: ['teachers'], summary: 'Teachers as CSV (streamed)', params: orgParamsSchema, querystring: exportQuerySchema } },
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
    { schema: { tags: ['teachers'], summary: 'Import teachers by e-mail', params: orgParamsSchema, body: importBodySchema } },
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
    { schema: { tags: ['teachers'], summary: "Books in a teacher's libraries", params: teacherParamsSchema } },
    async (request) => getBookCounts(app.db, requireActor(request), { organisationId: request.params.orgId, memberId: request.params.teacherId }),
  );
};
