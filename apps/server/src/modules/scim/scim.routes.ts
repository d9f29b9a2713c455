import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SCIM_BASE_PATH, SCIM_REQUEST_LOG_SIZE, type ErrorCode } from '@quire/core';
import { countRequest } from '../../db/rate-limit.repository.js';
import { appError } from '../../errors.js';
import { emptyResponse } from '../../plugins/api-docs.js';
import { errorResponse } from '../../plugins/error-handler.js';
import { resourceTypes, schemas, serviceProviderConfig } from './scim-discovery.js';
import { SCIM_BODY_LIMIT, SCIM_CONTENT_TYPE, SCIM_ERROR_SCHEMA } from './scim-schema.js';
import { scimBaseUrl, scimGroupNames, tokenHash } from './scim-tokens.service.js';
import { commitWithoutFlush, logRequest, useToken } from './scim-tokens.repository.js';
import type { ScimContext } from './scim-context.js';
import { createGroup, deleteGroup, getGroup, listGroups, patchGroup, replaceGroup } from './scim-groups.service.js';
import { createUser, deleteUser, getUser, listUsers, patchUser, replaceUser } from './scim-users.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The organisation and token of a SCIM request, once its bearer token is verified. */
    scim: ScimContext | null;
    /** Why a SCIM request was refused, for the console's request list. */
    scimOutcome: string | null;
  }
  interface FastifyContextConfig {
    /** The operation a SCIM route performs, as the console's request list names it. */
    scimOperation?: string;
  }
}

/** The SCIM error type (RFC 7644 §3.12) of each refusal that has one. */
const SCIM_TYPES: Partial<Record<ErrorCode, string>> = {
  scim_invalid_filter: 'invalidFilter',
  scim_invalid_value: 'invalidValue',
  validation_error: 'invalidValue',
  invalid_characters: 'invalidValue',
  scim_invalid_syntax: 'invalidSyntax',
  invalid_json: 'invalidSyntax',
  bad_request: 'invalidSyntax',
  scim_invalid_path: 'invalidPath',
  scim_mutability: 'mutability',
  scim_uniqueness: 'uniqueness',
  // An admins group's member whose address may not be an admin (Add admins' own rules).
  provider_email: 'invalidValue',
  district_sso: 'invalidValue',
  invalid_email: 'invalidValue',
};

/** An answer in application/scim+json (RFC 7644 §3.1), as /docs shows it. */
const scimAnswer = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { [SCIM_CONTENT_TYPE]: { schema } } });
const scimResource = scimAnswer(z.looseObject({ schemas: z.array(z.string()), id: z.string().optional() }), 'A SCIM resource or ListResponse');
const scimErrorSchema = z.object({ schemas: z.array(z.string()), status: z.string(), scimType: z.string().optional(), detail: z.string() });
const scimError = scimAnswer(scimErrorSchema, 'A SCIM error (RFC 7644 §3.12): status as a string, scimType where one applies');
const errors = { 400: scimError, 401: scimError, 404: scimError, 405: scimError, 409: scimError, 413: scimError, 415: scimError, 429: scimError };
const idParams = z.object({ id: z.string().min(1).max(200) });
const attributeQuery = z.object({ attributes: z.string().max(2000).optional(), excludedAttributes: z.string().max(2000).optional() });
const listQuery = attributeQuery.extend({ filter: z.string().optional(), startIndex: z.string().optional(), count: z.string().optional() });
const tags = ['scim'];

/** One resource of a discovery list by its id (RFC 7644 §4: /Schemas/{urn}, /ResourceTypes/{name}), or a SCIM 404. */
function oneOf<T extends { id: string }>(list: { Resources: T[] }, id: string, what: string): T {
  const found = list.Resources.find((resource) => resource.id === id);
  if (!found) throw appError('not_found', { message: `No ${what} ${id} at this endpoint` });
  return found;
}
const RESOURCES = new Set(['users', 'groups', 'schemas', 'resourcetypes', 'serviceproviderconfig', 'bulk', 'me']);

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S{16,200})\s*$/i.exec(header) : null;
  return match?.[1] ?? null;
}

/** Who a request was about, for the request list: the userName sent, the id in the path, or the filter. */
function subjectOf(request: FastifyRequest): string | null {
  const body = request.body as { userName?: unknown; displayName?: unknown } | undefined;
  if (request.method === 'POST' && body && typeof body.userName === 'string') return body.userName.slice(0, 256);
  if (request.method === 'POST' && body && typeof body.displayName === 'string') return body.displayName.slice(0, 256);
  const params = request.params as { id?: unknown } | undefined;
  if (params && typeof params.id === 'string') return params.id;
  const query = request.query as { filter?: unknown } | undefined;
  return query && typeof query.filter === 'string' ? query.filter.slice(0, 256) : null;
}

/**
 * The SCIM 2.0 endpoint under /scim/v2 (docs/provisioning.md). A bearer token names the organisation; the endpoint
 * takes and answers application/scim+json, answers every refusal in SCIM's error format, and records each
 * authenticated request for the console. Identity providers call it server to server with no cookie and no Origin,
 * so its routes (and only they) are exempt from the console's Origin check (`config.csrf: false`).
 */
export const scimRoutes: FastifyPluginAsyncZod = async (app) => {
  const baseUrl = scimBaseUrl(app.env);
  const docsUrl = `${baseUrl.replace(SCIM_BASE_PATH, '')}/docs`;
  const perMinute = app.env.SCIM_REQUESTS_PER_MINUTE;
  const groupNames = scimGroupNames(app.env);
  const admins: ScimContext['admins'] = {
    groupName: groupNames.admins,
    emailRules: { providerEmailDomain: app.env.PROVIDER_EMAIL_DOMAIN, productName: app.env.PRODUCT_NAME, districtSsoDomains: app.env.DISTRICT_SSO_DOMAINS.split(',') },
  };
  const libraryManagers: ScimContext['libraryManagers'] = { groupName: groupNames.libraryManagers };
  app.decorateRequest('scim', null);
  app.decorateRequest('scimOutcome', null);
  app.addContentTypeParser(SCIM_CONTENT_TYPE, { parseAs: 'string', bodyLimit: SCIM_BODY_LIMIT }, app.getDefaultJsonParser('error', 'ignore'));

  app.setErrorHandler((error: Error, request, reply) => {
    const { status, body } = errorResponse(error, request);
    const scimType = SCIM_TYPES[body.code];
    request.scimOutcome = `${scimType ?? body.code}: ${body.message}`.slice(0, 300);
    return reply.status(status).type(SCIM_CONTENT_TYPE).send({ schemas: [SCIM_ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail: body.message });
  });

  // The token first: nothing of an organisation is read, parsed or counted before it is known.
  app.addHook('onRequest', async (request) => {
    const token = bearerToken(request);
    const hash = token ? tokenHash(token) : null;
    // The token's last use and the request's count, in one transaction that does not wait for a disk flush.
    const found = hash
      ? await app.db.transaction().execute(async (trx) => {
          await commitWithoutFlush(trx);
          const used = await useToken(trx, hash);
          return used ? { ...used, count: await countRequest(trx, `scim|${used.id}`, 60_000) } : undefined;
        })
      : undefined;
    if (!found) throw appError('scim_unauthorised');
    request.scim = { organisationId: found.organisation_id, tokenId: found.id, baseUrl, admins, libraryManagers };
    const { hits, ttl } = found.count;
    if (hits > perMinute) {
      throw appError('too_many_requests', { message: `At most ${perMinute} requests a minute per token: retry in ${Math.ceil(ttl / 1000)} seconds` });
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode === 429) reply.header('retry-after', '60');
    if (payload !== null && payload !== undefined && payload !== '') reply.type(SCIM_CONTENT_TYPE);
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    const scim = request.scim;
    if (!scim) return;
    try {
      await app.db.transaction().execute((trx) => logRequest(trx, {
        organisationId: scim.organisationId, tokenId: scim.tokenId, method: request.method,
        operation: request.routeOptions.config?.scimOperation ?? 'Unknown path', subject: subjectOf(request), status: reply.statusCode,
        outcome: reply.statusCode < 400 ? 'OK' : (request.scimOutcome ?? String(reply.statusCode)),
      }, SCIM_REQUEST_LOG_SIZE));
    } catch (error) {
      request.log.warn({ err: error }, 'scim request log not written');
    }
  });

  const ctx = (request: FastifyRequest): ScimContext => {
    if (!request.scim) throw appError('scim_unauthorised');
    return request.scim;
  };
  const config = (scimOperation: string) => ({ csrf: false, scimOperation });
  const created = (reply: FastifyReply, resource: Record<string, unknown>) => {
    const location = (resource.meta as { location: string }).location;
    return reply.code(201).header('location', location).send(resource);
  };

  app.get('/ServiceProviderConfig', { config: config('Read configuration'), schema: { tags, summary: 'SCIM: what the endpoint supports', response: { 200: scimResource, ...errors } } }, async () =>
    serviceProviderConfig(baseUrl, docsUrl));
  app.get('/ResourceTypes', { config: config('Read resource types'), schema: { tags, summary: 'SCIM: resource types (User)', response: { 200: scimResource, ...errors } } }, async () =>
    resourceTypes(baseUrl));
  app.get('/Schemas', { config: config('Read schemas'), schema: { tags, summary: 'SCIM: the User and enterprise extension attributes kept', response: { 200: scimResource, ...errors } } }, async () =>
    schemas(baseUrl));
  app.get('/ResourceTypes/:id', { config: config('Read resource types'), schema: { tags, summary: 'SCIM: one resource type (User, Group)', params: idParams, response: { 200: scimResource, ...errors } } }, async (request) =>
    oneOf(resourceTypes(baseUrl), request.params.id, 'resource type'));
  app.get('/Schemas/:id', { config: config('Read schemas'), schema: { tags, summary: 'SCIM: one schema, by its URN', params: idParams, response: { 200: scimResource, ...errors } } }, async (request) =>
    oneOf(schemas(baseUrl), request.params.id, 'schema'));

  app.get('/Users', {
    config: config('List users'),
    schema: { tags, summary: 'SCIM: list or find users (filter: userName, externalId, emails eq; and; startIndex, count ≤ 200)', querystring: listQuery, response: { 200: scimResource, ...errors } },
  }, async (request) => listUsers(app.db, ctx(request), request.query));

  app.post('/Users', {
    config: config('Create user'), bodyLimit: SCIM_BODY_LIMIT,
    schema: { tags, summary: 'SCIM: create a user (a pending teacher), 201 with Location', response: { 201: scimResource, ...errors } },
  }, async (request, reply) => created(reply, await createUser(app.db, ctx(request), request.body)));

  app.get('/Users/:id', {
    config: config('Read user'), schema: { tags, summary: 'SCIM: one user (attributes, excludedAttributes)', params: idParams, querystring: attributeQuery, response: { 200: scimResource, ...errors } },
  }, async (request) => getUser(app.db, ctx(request), request.params.id, request.query));

  app.put('/Users/:id', {
    config: config('Replace user'), bodyLimit: SCIM_BODY_LIMIT,
    schema: { tags, summary: 'SCIM: replace a user', params: idParams, response: { 200: scimResource, ...errors } },
  }, async (request) => replaceUser(app.db, ctx(request), request.params.id, request.body));

  app.patch('/Users/:id', {
    config: config('Update user'), bodyLimit: SCIM_BODY_LIMIT,
    schema: { tags, summary: 'SCIM: update a user (add, replace, remove; active false removes the teacher)', params: idParams, response: { 200: scimResource, ...errors } },
  }, async (request) => patchUser(app.db, ctx(request), request.params.id, request.body));

  app.delete('/Users/:id', {
    config: config('Delete user'),
    schema: { tags, summary: 'SCIM: remove the teacher from the organisation (204)', params: idParams, response: { 204: emptyResponse('Removed'), ...errors } },
  }, async (request, reply) => {
    await deleteUser(app.db, ctx(request), request.params.id);
    return reply.code(204).send(null);
  });

  app.get('/Groups', {
    config: config('List groups'),
    schema: { tags, summary: 'SCIM: list or find groups (filter: displayName, externalId, id eq; members[value eq]; excludedAttributes=members)', querystring: listQuery, response: { 200: scimResource, ...errors } },
  }, async (request) => listGroups(app.db, ctx(request), request.query));

  app.post('/Groups', {
    config: config('Create group'), bodyLimit: SCIM_BODY_LIMIT,
    schema: { tags, summary: 'SCIM: create a group of provisioned users, 201 with Location', response: { 201: scimResource, ...errors } },
  }, async (request, reply) => created(reply, await createGroup(app.db, ctx(request), request.body)));

  app.get('/Groups/:id', {
    config: config('Read group'), schema: { tags, summary: 'SCIM: one group (excludedAttributes=members leaves them out)', params: idParams, querystring: listQuery, response: { 200: scimResource, ...errors } },
  }, async (request) => getGroup(app.db, ctx(request), request.params.id, request.query));

  app.put('/Groups/:id', {
    config: config('Replace group'), bodyLimit: SCIM_BODY_LIMIT,
    schema: { tags, summary: 'SCIM: replace a group and its members', params: idParams, response: { 200: scimResource, ...errors } },
  }, async (request) => replaceGroup(app.db, ctx(request), request.params.id, request.body));

  app.patch('/Groups/:id', {
    config: config('Update group'), bodyLimit: SCIM_BODY_LIMIT,
    schema: { tags, summary: 'SCIM: rename a group, add or remove members (the admins group makes its members admins, the library managers group library managers)', params: idParams, response: { 200: scimResource, ...errors } },
  }, async (request) => patchGroup(app.db, ctx(request), request.params.id, request.body));

  app.delete('/Groups/:id', {
    config: config('Delete group'),
    schema: { tags, summary: 'SCIM: delete a group (204); its members stay teachers', params: idParams, response: { 204: emptyResponse('Deleted'), ...errors } },
  }, async (request, reply) => {
    await deleteGroup(app.db, ctx(request), request.params.id);
    return reply.code(204).send(null);
  });

  // Any other path or method under the base URL: a SCIM 404 (or 405 on a resource it names), never the console's page.
  app.all('/*', { config: config('Unknown path'), bodyLimit: SCIM_BODY_LIMIT, schema: { hide: true } }, async (request) => {
    const resource = (request.url.split('?')[0] ?? '').slice(SCIM_BASE_PATH.length + 1).split('/')[0]?.toLowerCase() ?? '';
    if (resource === 'users' || resource === 'groups' || resource === 'schemas' || resource === 'resourcetypes' || resource === 'serviceproviderconfig') throw appError('scim_method_not_allowed');
    throw appError('not_found', { message: RESOURCES.has(resource) ? `${resource} is not supported by this endpoint` : 'No such SCIM resource' });
  });
};
