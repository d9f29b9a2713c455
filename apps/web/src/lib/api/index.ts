export { isApiError } from './api-error.js';
export { hasErrorCode } from './error-code.js';
export { apiRequest } from './rest-client.js';
export { GraphqlError, graphqlRequest } from './graphql-client.js';
export { serviceUrl } from './service-url.js';
export type { MutationCallbacks } from './mutation-callbacks.js';
export { useApiMutation } from './use-api-mutation.js';
export { lazyContract } from './contract.js';
export { organisationQueryOptions } from './organisation-query.js';
