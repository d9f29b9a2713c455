export { ApiError, INVALID_RESPONSE, isApiError } from './api-error.js';
export { apiRequest, type HttpMethod, type RequestOptions } from './rest-client.js';
export { GraphqlError, graphqlRequest, operationNameOf, type GraphqlErrorEntry, type GraphqlRequest } from './graphql-client.js';
export { isRefusal, userFacingMessage } from './user-facing.js';
export { serviceUrl } from './service-url.js';
export type { MutationCallbacks } from './mutation-callbacks.js';
export { useApiMutation, type ApiMutation } from './use-api-mutation.js';
export { lazyContract, type Contract } from './contract.js';
export { organisationQueryOptions } from './organisation-query.js';
