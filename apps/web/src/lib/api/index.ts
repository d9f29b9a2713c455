export { ApiError, isApiError } from './api-error.js';
export { apiRequest, type HttpMethod, type RequestOptions } from './rest-client.js';
export { GraphqlError, graphqlRequest, operationNameOf, type GraphqlErrorEntry, type GraphqlRequest } from './graphql-client.js';
export { serviceUrl } from './service-url.js';
