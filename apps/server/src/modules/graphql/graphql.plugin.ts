import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import mercurius, { type IResolvers, type MercuriusContext } from 'mercurius';
import type { GraphQLError } from 'graphql';
import type { AppError } from '../../errors.js';
import { appErrorOf as catalogueErrorOf, errorResponse } from '../../plugins/error-handler.js';
import type { GraphqlContext, GraphqlModule } from './graphql.context.js';
import { checkGraphqlRequest, GraphqlRequestError, sendGraphqlRefusal } from './graphql.guard.js';
import { mergeGraphqlModules } from './registry.js';

/** mercurius counts leaf fields as a level, so this allows ~11 levels of nesting. */
const QUERY_DEPTH = 12;

/**
 * graphql-js ends some messages with "Did you mean …?", naming fields, types and enum values of the
 * schema: a map of it for someone who may not introspect it. Validation is told to leave them out
 * (`hideSuggestions`); mercurius gives execution (variable values) no such option, so those are cut here.
 */
const SUGGESTION = /\s*Did you mean [^?]*\?/g;
function withoutSuggestions(message: string): string {
  return message.replace(SUGGESTION, '');
}

/** A resolver's catalogue error (a pool that had no connection free in time is 'server_busy', as in REST). */
function appErrorOf(error: GraphQLError): AppError | null {
  return catalogueErrorOf(error.originalError);
}

/**
 * The organisation service: POST /graphql (spec §7). Resolver errors carry the REST codes in
 * `extensions.code`; internal errors are hidden behind a generic message and logged.
 */
export async function graphqlPlugin(app: FastifyInstance, options: { modules: readonly GraphqlModule[] }): Promise<void> {
  const { schema, resolvers } = mergeGraphqlModules(options.modules);
  // mercurius declares JSON Schemas for its routes; the app's zod compilers cannot read them, and
  // mercurius validates the request itself, so this scope serialises plain JSON.
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // Limits, GET rules and introspection are checked before mercurius parses or runs anything (graphql.guard.ts).
  app.addHook('preHandler', async (request) => {
    await checkGraphqlRequest(request, { db: app.db, production: app.env.NODE_ENV === 'production' });
  });
  await app.register(mercurius, {
    schema,
    // mercurius types resolvers against its base context; ours extends it (context() below).
    resolvers: resolvers as unknown as IResolvers,
    path: '/graphql',
    routes: true,
    graphiql: false,
    ide: false,
    queryDepth: QUERY_DEPTH,
    // mercurius' type names only maxErrors; graphql-js' validate() takes hideSuggestions (above).
    graphql: { validateOptions: { hideSuggestions: true } as { maxErrors?: number } },
    allowBatchedQueries: false,
    // Request errors (a refusal above, a body Fastify could not read, mercurius' own 4xx) keep their
    // status in the GraphQL shape; anything else is the one error handler's generic 500.
    errorHandler: async (error: Error, request: FastifyRequest, reply: FastifyReply) => {
      if (error instanceof GraphqlRequestError) {
        sendGraphqlRefusal(reply, error);
        return;
      }
      const { status, body } = errorResponse(error, request);
      const details = (error as { errors?: Array<{ message?: unknown }> }).errors;
      const message =
        status < 500 && Array.isArray(details) && details.length
          ? details.map((e) => withoutSuggestions(String(e.message))).join('\n')
          : typeof body.message === 'string'
            ? body.message
            : 'Bad request';
      sendGraphqlRefusal(reply, new GraphqlRequestError(status, body.code, message));
    },
    context: (request: FastifyRequest, _reply: FastifyReply): Omit<GraphqlContext, keyof MercuriusContext> => ({
      actor: request.actor,
      db: app.db,
      request,
    }),
    errorFormatter: (execution, context) => {
      const errors = execution.errors.map((error) => {
        const appError = appErrorOf(error);
        if (appError) {
          return { message: appError.message, locations: error.locations, path: error.path, extensions: { code: appError.code, statusCode: appError.statusCode, ...appError.details } };
        }
        if (error.originalError && !(error.originalError as { extensions?: unknown }).extensions) {
          context.app.log.error({ err: error.originalError }, 'graphql resolver failed');
          return { message: 'Something went wrong', locations: error.locations, path: error.path, extensions: { code: 'internal_error', statusCode: 500 } };
        }
        return { message: withoutSuggestions(error.message), locations: error.locations, path: error.path, extensions: { code: 'graphql_error', ...error.extensions } };
      });
      // No `data` at all: the request failed before execution (a hook's 401/403, or an invalid query).
      const beforeExecution = execution.data === undefined;
      const requestError = beforeExecution ? appErrorOf(execution.errors[0] as GraphQLError) : null;
      const statusCode = requestError
        ? requestError.statusCode
        : beforeExecution && execution.errors.every((e) => !e.originalError)
          ? 400
          : 200;
      return { statusCode, response: { data: execution.data ?? null, errors } };
    },
  });
}
