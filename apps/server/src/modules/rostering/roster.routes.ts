import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorResponseSchema, organisationParamsSchema, rosterHistorySchema, rosterImportParamsSchema, rosterImportSchema, rosterOrgLinksSchema,
  rosterOrgSetupSchema, rosterUploadQuerySchema,
} from '@quire/core';
import { z } from 'zod';
import { textResponse } from '../../plugins/api-docs.js';
import { requireActor } from '../access/actor.js';
import { requireOrgAccess } from '../access/org-access.js';
import { registerZipParser } from './roster-upload.js';
import {
  applyImport, cancelImport, errorsCsv, getImport, listHistory, previewAgain, readOrgSetup, saveOrgLinks, uploadRoster, type RosterDeps, type RosterUpload,
} from './roster.service.js';

const tags = ['rostering'];
const PREFIX = '/api/organisations/:orgId/rostering';
const errors = { 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };
const uploadBody = z.custom<RosterUpload>((value) => typeof value === 'object' && value !== null && 'path' in value, 'Send the zip as the body (application/zip)');

/** The Rostering page's calls (docs/rostering.md). Admins of the organisation only. */
export function rosterRoutes(deps: RosterDeps): FastifyPluginAsyncZod {
  return async (app) => {
    registerZipParser(app);

    app.post(`${PREFIX}/imports`, {
      // Who may upload is settled before a byte of the body is written anywhere.
      preParsing: async (request) => {
        await requireOrgAccess(deps.db, requireActor(request), (request.params as { orgId: string }).orgId, 'admin');
      },
      schema: {
        tags, summary: 'Upload a OneRoster 1.2 or 1.1 CSV zip and answer its preview (nothing changes yet)',
        description: 'The body is the zip (application/zip, at most 100 MB); the query carries the file name and the mapping choices. 400 `roster_file_invalid` names the file, line, column and reason when the zip cannot be read (not a zip, a zip bomb, a path outside the archive, no manifest, a file the manifest names missing or one it says is absent present, a header that is not OneRoster, text that is not UTF-8, a record over 64 KB). Errors in rows are listed in the preview and do not stop the other rows.',
        params: organisationParamsSchema, querystring: rosterUploadQuerySchema, body: uploadBody,
        response: { 200: rosterImportSchema, 400: errorResponseSchema, ...errors, 413: errorResponseSchema, 415: errorResponseSchema },
      },
    }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return uploadRoster(deps, requireActor(request), request.params.orgId, request.body, request.query);
    });

    app.get(`${PREFIX}/imports`, {
      schema: { tags, summary: 'The history of imports, newest first (the last 50)', params: organisationParamsSchema, response: { 200: rosterHistorySchema, ...errors } },
    }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return listHistory(deps.db, requireActor(request), request.params.orgId);
    });

    app.get(`${PREFIX}/imports/:importId`, {
      schema: { tags, summary: 'One import: its preview, state and progress (rows done of total while it is applied)', params: rosterImportParamsSchema, response: { 200: rosterImportSchema, ...errors } },
    }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return getImport(deps.db, requireActor(request), request.params.orgId, request.params.importId);
    });

    app.post(`${PREFIX}/imports/:importId/preview`, {
      schema: { tags, summary: 'Work the preview out again (after the OneRoster org ids changed)', params: rosterImportParamsSchema, response: { 200: rosterImportSchema, 400: errorResponseSchema, ...errors } },
    }, async (request) => previewAgain(deps.db, requireActor(request), request.params.orgId, request.params.importId));

    app.post(`${PREFIX}/imports/:importId/apply`, {
      schema: {
        tags, summary: 'Apply the import as a background job',
        description: 'Queues the job and answers the import (status queued). A second call answers the import as it is: it is applied once. 409 `roster_import_has_errors` with all-or-nothing and errors; 409 `roster_import_closed` when it was cancelled. Recorded as `rostering.import.applied`; each member changed as `rostering.member.*`.',
        params: rosterImportParamsSchema, response: { 200: rosterImportSchema, 400: errorResponseSchema, ...errors, 409: errorResponseSchema },
      },
    }, async (request) => applyImport(deps, requireActor(request), request.params.orgId, request.params.importId));

    app.post(`${PREFIX}/imports/:importId/cancel`, {
      schema: { tags, summary: 'Cancel an import that was only previewed', params: rosterImportParamsSchema, response: { 200: rosterImportSchema, 400: errorResponseSchema, ...errors, 409: errorResponseSchema } },
    }, async (request) => cancelImport(deps.db, requireActor(request), request.params.orgId, request.params.importId));

    app.get(`${PREFIX}/imports/:importId/errors.csv`, {
      schema: {
        tags, summary: 'The import’s errors as CSV (file, line, column, reason; UTF-8 with BOM)', params: rosterImportParamsSchema,
        response: { 200: textResponse('text/csv', 'One row per error'), ...errors },
      },
    }, async (request, reply) => {
      const file = await errorsCsv(deps.db, requireActor(request), request.params.orgId, request.params.importId);
      return reply
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .type('text/csv; charset=utf-8')
        .send(file.body);
    });

    app.get(`${PREFIX}/orgs`, {
      schema: { tags, summary: 'The OneRoster org ids matched to this organisation and those under it', params: organisationParamsSchema, response: { 200: rosterOrgSetupSchema, ...errors } },
    }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return readOrgSetup(deps.db, requireActor(request), request.params.orgId);
    });

    app.put(`${PREFIX}/orgs`, {
      schema: {
        tags, summary: 'Set which OneRoster org (sourcedId) is which organisation (the whole list)',
        description: '400 `roster_org_unknown` when an organisation is not this one or one under it. Recorded as `rostering.orgs.updated`.',
        params: organisationParamsSchema, body: rosterOrgLinksSchema, response: { 200: rosterOrgSetupSchema, 400: errorResponseSchema, ...errors },
      },
    }, async (request) => saveOrgLinks(deps.db, requireActor(request), request.params.orgId, request.body));
  };
}
