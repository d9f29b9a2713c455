import { queryOptions, type QueryKey } from '@tanstack/react-query';
import type { Contract } from './contract.js';
import { graphqlRequest } from './graphql-client.js';

/**
 * A screen's selection of getOrganisationById(id): its document, parsed with a `pick` of the core
 * organisationSchema, cached under a key of lib/query-keys.ts below the organisation's own.
 */
export function organisationQueryOptions<T>(orgId: string, queryKey: QueryKey, document: string, schema: Contract<T>) {
  return queryOptions({
    queryKey,
    queryFn: ({ signal }) => graphqlRequest({ query: document, variables: { id: orgId }, field: 'getOrganisationById', schema, signal }),
  });
}
