import { expect } from 'vitest';
import SCIMMY from 'scimmy';
import type { LightMyRequestResponse } from 'fastify';
import type { GeneratedScimToken } from '@quire/core';
import { signIn } from './auth.js';
import { buildAdmin, buildOrganisation } from './factories.js';
import type { FileApp } from './file-app.js';
import { uniqueEmail } from './file-app.js';

/**
 * SCIM test helpers: an organisation with an admin and a token generated through the console's route, requests as an
 * identity provider sends them, and every answer checked with SCIMMY's schemas (a SCIM library the server does not use).
 */

SCIMMY.Schemas.User.definition.extend(SCIMMY.Schemas.EnterpriseUser.definition);

const SCIM_JSON = 'application/scim+json';

export async function scimOrganisation(t: FileApp) {
  const org = await buildOrganisation(t.app.db);
  const email = uniqueEmail('scim-admin');
  await buildAdmin(t.app.db, { organisationId: org.id, email });
  const { headers } = await signIn(t.app, { email });
  const generated = await t.app.inject({ method: 'POST', url: `/api/organisations/${org.id}/scim/tokens`, headers });
  expect(generated.statusCode).toBe(200);
  const token = generated.json<GeneratedScimToken>();
  return { org, admin: headers, token: token.token, tokenId: token.id };
}

/** A request as a provider sends it: bearer token, SCIM JSON, no cookie, no Origin. */
export function scim(t: FileApp, token: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) {
  return t.app.inject({
    method,
    url: `/scim/v2${url}`,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': SCIM_JSON } : {}) },
    ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
}

/** A User answer, checked against RFC 7643's User schema (with the enterprise extension) by SCIMMY. */
export function expectScimUser(response: LightMyRequestResponse, status = 200): Record<string, unknown> & { id: string } {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/scim\+json/);
  const body = response.json();
  expect(() => SCIMMY.Schemas.User.definition.coerce(body, 'out')).not.toThrow();
  expect(body.schemas).toContain('urn:ietf:params:scim:schemas:core:2.0:User');
  expect(body.meta.location).toMatch(new RegExp(`/scim/v2/Users/${body.id}$`));
  return body;
}

/** A ListResponse of Users: integers where RFC 7644 says so, each resource a valid User. */
export function expectScimList(response: LightMyRequestResponse, definition: { coerce: (data: unknown, direction: string) => unknown } = SCIMMY.Schemas.User.definition): { totalResults: number; startIndex: number; itemsPerPage: number; Resources: Array<Record<string, unknown> & { id: string; userName: string; active: boolean }> } {
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/scim\+json/);
  const body = response.json();
  expect(body.schemas).toEqual([SCIMMY.Messages.ListResponse.id]);
  for (const key of ['totalResults', 'startIndex', 'itemsPerPage']) expect(Number.isInteger(body[key]), key).toBe(true);
  expect(() => new SCIMMY.Messages.ListResponse(body)).not.toThrow();
  for (const resource of body.Resources) expect(() => definition.coerce(resource, 'out')).not.toThrow();
  return body;
}

/** A SCIM error: the Error schema, the status as a string, the scimType SCIMMY accepts for that status. */
export function expectScimError(response: LightMyRequestResponse, status: number, scimType?: string): void {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/scim\+json/);
  const body = response.json();
  expect(body.schemas).toEqual([SCIMMY.Messages.ErrorResponse.id]);
  expect(body.status).toBe(String(status));
  expect(typeof body.detail).toBe('string');
  if (scimType) expect(body.scimType).toBe(scimType);
  else expect(body.scimType).toBeUndefined();
  if ([400, 401, 403, 404, 409, 413, 500, 501].includes(status)) {
    const checked = new SCIMMY.Messages.ErrorResponse({ status, ...(body.scimType ? { scimType: body.scimType } : {}), detail: body.detail } as never);
    expect(checked.status).toBe(String(status));
  }
}

/** A Group answer, checked against RFC 7643's Group schema by SCIMMY. */
export function expectScimGroup(response: LightMyRequestResponse, status = 200): Record<string, unknown> & { id: string; displayName: string; members?: Array<{ value: string; display?: string }> } {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/scim\+json/);
  const body = response.json();
  expect(() => SCIMMY.Schemas.Group.definition.coerce(body, 'out')).not.toThrow();
  expect(body.schemas).toEqual([SCIMMY.Schemas.Group.id]);
  expect(body.meta.location).toMatch(new RegExp(`/scim/v2/Groups/${body.id}$`));
  return body;
}
