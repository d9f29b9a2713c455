import type { FastifyInstance } from 'fastify';
import type { Insertable } from 'kysely';
import type { OrganisationsTable } from '../src/db/types.js';
import { signIn, type SignedInHeaders } from './auth.js';
import { buildAdmin, buildOrganisation, buildTeacher } from './factories.js';

/** Shared set-up of the teachers and licences tests: an organisation with a signed-in admin. */
export async function orgWithAdmin(
  app: FastifyInstance,
  overrides: Partial<Insertable<OrganisationsTable>> = {},
  email?: string,
): Promise<{ orgId: string; headers: SignedInHeaders; userId: string; email: string }> {
  const org = await buildOrganisation(app.db, overrides);
  const admin = await buildAdmin(app.db, { organisationId: org.id, email });
  const { userId, headers } = await signIn(app, { email: admin.email });
  return { orgId: org.id, headers, userId, email: admin.email };
}

/** A signed-in library manager (role 400, orgLibraries on) of the organisation: read-only. */
export async function libraryManagerOf(app: FastifyInstance, orgId: string): Promise<SignedInHeaders> {
  await app.db.updateTable('organisations').set({ org_libraries: true }).where('id', '=', orgId).execute();
  const manager = await buildTeacher(app.db, { organisationId: orgId, role: 400 });
  return (await signIn(app, { email: manager.email })).headers;
}

export interface GraphqlAnswer<T> {
  data: T | null;
  errors?: Array<{ message: string; extensions?: { code?: string; statusCode?: number } }>;
}

/** POST /graphql as the console does. */
export async function graphql<T = Record<string, unknown>>(
  app: FastifyInstance,
  headers: SignedInHeaders,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<GraphqlAnswer<T>> {
  const response = await app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables } });
  return response.json() as GraphqlAnswer<T>;
}

export const orgPath = (orgId: string) => `/payments/v1/admin/organisations/${orgId}`;
