import { useQuery } from '@tanstack/react-query';
import type { OrgAccessLevel } from '@quire/core';
import { lazyContract } from '../api/contract.js';
import { organisationQueryOptions } from '../api/organisation-query.js';
import { queryKeys } from '../query-keys.js';

const GET_ORGANISATION_ACCESS = /* GraphQL */ `
  query getOrganisationAccess($id: ID!) {
    getOrganisationById(id: $id) { id access }
  }
`;

const accessSchema = lazyContract((c) => c.organisationSchema.pick({ id: true, access: true }));

export interface OrgAccess {
  /** null while loading, or when the server refused. */
  level: OrgAccessLevel | null;
  /** Admins change things; library managers (and anyone while loading) only read. */
  isAdmin: boolean;
  isPending: boolean;
  error: unknown;
}

/**
 * What the signed-in user may do in the organisation, as the server decided it (requireOrgAccess, the same
 * rule as the ID token's bc_orgs): the one place the console reads it, never worked out again from e-mails.
 */
export function useOrgAccess(orgId: string): OrgAccess {
  const query = useQuery({
    ...organisationQueryOptions(orgId, queryKeys.orgAccess(orgId), GET_ORGANISATION_ACCESS, accessSchema),
    enabled: orgId !== '',
  });
  const level = query.data?.access ?? null;
  return { level, isAdmin: level === 'admin', isPending: query.isPending, error: query.error };
}
