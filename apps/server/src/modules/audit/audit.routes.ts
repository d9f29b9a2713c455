import { constants } from 'node:zlib';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  auditEventsPageSchema,
  auditEventsQuerySchema,
  auditFiltersSchema,
  auditRetentionSchema,
  auditRetentionUpdateSchema,
  errorResponseSchema,
  organisationParamsSchema,
} from '@quire/core';
import { textResponse } from '../../plugins/api-docs.js';
import { requireActor } from '../access/actor.js';
import { exportAuditEventsCsv, listAuditEvents, readAuditRetention, updateAuditRetention } from './audit.service.js';

const tags = ['audit log'];
const PREFIX = '/api/organisations/:orgId';
const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };
const FILTERS =
  'Filters, combined: `actor` (part of the e-mail or name), `action` (one or several catalogue names: `action=licenses.assign&action=members.revoke`), `target` (part of a target’s e-mail, name or id), `from` (inclusive) and `to` (exclusive) as a day or an ISO 8601 date-time with offset, `outcome` (`success` or `refused`), and at a district `school` (one organisation under it, or the district’s own id). An unknown action, `from` after `to`, or a search over 200 characters: 400, nothing run.';

/** The organisation's audit log (docs/audit-log.md): its entries, their export, and how long they are kept. */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    `${PREFIX}/audit-events`,
    {
      schema: {
        tags,
        summary: 'The audit log: entries newest first, 50 a page (keyset)',
        description: `Admins of the organisation only (library managers and teachers: 403). At a district the log holds the entries of every organisation under it. Pass \`nextCursor\` as \`cursor\` for the next page; pages neither skip nor repeat entries while new ones arrive. ${FILTERS}`,
        params: organisationParamsSchema,
        querystring: auditEventsQuerySchema,
        response: { 200: auditEventsPageSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return listAuditEvents(app.db, requireActor(request), request.params.orgId, request.query);
    },
  );

  app.get(
    `${PREFIX}/audit-events.csv`,
    {
      compress: { zlibOptions: { level: constants.Z_BEST_SPEED }, brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } } },
      schema: {
        tags,
        summary: 'The audit log as CSV: exactly the filtered view, every page (streamed)',
        description: `Admins only. RFC 4180, UTF-8 with a BOM, CRLF, one header row, times in ISO 8601 UTC; a cell starting with = + - @, a tab or a CR is neutralised with an apostrophe. The export is recorded in the log (audit.export), and holds the entries written before it. ${FILTERS}`,
        params: organisationParamsSchema,
        querystring: auditFiltersSchema,
        response: { 200: textResponse('text/csv', 'RFC 4180 CSV, UTF-8 with a BOM, CRLF line ends (docs/audit-log.md)'), ...errors },
      },
    },
    async (request, reply) => {
      const stream = await exportAuditEventsCsv(app.db, requireActor(request), request.params.orgId, request.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit-log.csv"')
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );

  app.get(
    `${PREFIX}/audit-settings`,
    {
      schema: {
        tags,
        summary: 'How long the audit log keeps entries',
        description: 'Admins only. Entries older than `retentionDays` are deleted by a daily job, which records how many it deleted.',
        params: organisationParamsSchema,
        response: { 200: auditRetentionSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return readAuditRetention(app.db, requireActor(request), request.params.orgId);
    },
  );

  app.put(
    `${PREFIX}/audit-settings`,
    {
      schema: {
        tags,
        summary: 'Change how long the audit log keeps entries',
        description: 'Admins only. `retentionDays` from 90 to 2555 (7 years); recorded with the old and the new period.',
        params: organisationParamsSchema,
        body: auditRetentionUpdateSchema,
        response: { 200: auditRetentionSchema, ...errors },
      },
    },
    async (request) => updateAuditRetention(app.db, requireActor(request), request.params.orgId, request.body.retentionDays),
  );
};
