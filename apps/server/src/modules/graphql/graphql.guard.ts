import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  GraphQLError,
  Kind,
  getOperationAST,
  parse,
  visit,
  type DocumentNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { isListedAdmin } from '../access/org-access.js';
import { RETRY_AFTER_SECONDS } from '../../plugins/error-handler.js';
import type { ErrorCode } from '@quire/core';

/**
 * What one GraphQL request may ask for (docs/security.md). The console's largest request has about 40
 * fields and no aliases beyond a handful; these limits are far above that and far below an attack.
 */
const GRAPHQL_LIMITS = {
  /** Lexical tokens in the document: parsing stops beyond this. */
  maxTokens: 4000,
  /** Fields counted with every fragment spread expanded (the cost of the request). */
  maxFields: 400,
  /** Aliased fields. */
  maxAliases: 30,
  /** Fields at the root of the operation (each is a resolver with its own database work). */
  maxRootFields: 15,
  /** Nested selection sets. */
  maxDepth: 10,
} as const;

export class GraphqlRequestError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const tooComplex = (message: string) => new GraphqlRequestError(400, 'graphql_too_complex', message);

/** Counts fields, aliases and depth with fragments expanded; stops as soon as a limit is passed. */
function measure(document: DocumentNode, operationSelection: SelectionSetNode): void {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  let fields = 0;
  let aliases = 0;
  const walk = (set: SelectionSetNode, depth: number, seen: ReadonlySet<string>) => {
    if (depth > GRAPHQL_LIMITS.maxDepth) throw tooComplex(`The query is nested more than ${GRAPHQL_LIMITS.maxDepth} levels deep`);
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        fields += 1;
        if (selection.alias) aliases += 1;
        if (fields > GRAPHQL_LIMITS.maxFields) throw tooComplex(`The query asks for more than ${GRAPHQL_LIMITS.maxFields} fields`);
        if (aliases > GRAPHQL_LIMITS.maxAliases) throw tooComplex(`The query uses more than ${GRAPHQL_LIMITS.maxAliases} aliases`);
        if (selection.selectionSet) walk(selection.selectionSet, depth + 1, seen);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        walk(selection.selectionSet, depth, seen);
      } else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        // Unknown and cyclic spreads are left to validation, which refuses them.
        if (!fragment || seen.has(name)) continue;
        walk(fragment.selectionSet, depth, new Set([...seen, name]));
      }
    }
  };
  // Root fields are counted through fragments too: `... on Query { }` and `...F` would otherwise hide them.
  let rootFields = 0;
  const countRoot = (set: SelectionSetNode, seen: ReadonlySet<string>) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        rootFields += 1;
        // Stops as soon as the limit is passed, so nested spreads cannot make the count itself expensive.
        if (rootFields > GRAPHQL_LIMITS.maxRootFields) throw tooComplex(`The query asks for more than ${GRAPHQL_LIMITS.maxRootFields} root fields`);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) countRoot(selection.selectionSet, seen);
      else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        if (fragment && !seen.has(name)) countRoot(fragment.selectionSet, new Set([...seen, name]));
      }
    }
  };
  countRoot(operationSelection, new Set());
  walk(operationSelection, 1, new Set());
}

/** True when the document reads the schema (`__schema` or `__type`; `__typename` is ordinary). */
function isIntrospection(document: DocumentNode): boolean {
  let found = false;
  const visit = (set: SelectionSetNode | undefined) => {
    if (!set || found) return;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value === '__schema' || selection.name.value === '__type') found = true;
        visit(selection.selectionSet);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        visit(selection.selectionSet);
      }
    }
  };
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION || definition.kind === Kind.FRAGMENT_DEFINITION) visit(definition.selectionSet);
  }
  return found;
}

/** An admin of at least one organisation, with a verified address. */
async function isAnyOrganisationAdmin(db: Kysely<DB>, request: FastifyRequest): Promise<boolean> {
  const actor = request.actor;
  if (!actor?.emailVerified) return false;
  return isListedAdmin(db, { userId: actor.userId, email: actor.email });
}

export interface GuardOptions {
  db: Kysely<DB>;
  production: boolean;
}

/**
 * Checks a GraphQL request before mercurius runs it: one operation (no batches), well-formed fields,
 * within GRAPHQL_LIMITS, no mutation over GET, no cross-site GET, and
 * introspection only for signed-in admins outside production. Refusals are 4xx with GraphQL errors.
 */
export async function checkGraphqlRequest(request: FastifyRequest, options: GuardOptions): Promise<void> {
  const isGet = request.method === 'GET';
  if (isGet && request.headers['sec-fetch-site'] === 'cross-site') {
    throw new GraphqlRequestError(403, 'csrf_origin_refused', 'This request must come from the console');
  }
  if (!isGet && !/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
    throw new GraphqlRequestError(415, 'unsupported_media_type', 'Send GraphQL requests as application/json');
  }
  const input: unknown = isGet ? request.query : request.body;
  if (Array.isArray(input)) throw new GraphqlRequestError(400, 'graphql_batch_refused', 'Send one operation per request');
  if (!input || typeof input !== 'object') throw new GraphqlRequestError(400, 'graphql_bad_request', 'The request has no query');
  const { query, variables, operationName } = input as Record<string, unknown>;
  if (typeof query !== 'string' || query.trim() === '') throw new GraphqlRequestError(400, 'graphql_bad_request', 'The request has no query');
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
    throw new GraphqlRequestError(400, 'graphql_bad_request', 'operationName must be a string');
  }
  if (isGet) {
    if (variables !== undefined && typeof variables !== 'string') throw new GraphqlRequestError(400, 'graphql_bad_request', 'variables must be JSON');
  } else if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) {
    throw new GraphqlRequestError(400, 'graphql_bad_request', 'variables must be an object');
  }

  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: GRAPHQL_LIMITS.maxTokens });
  } catch (error) {
    const message = error instanceof GraphQLError ? error.message : 'The query cannot be parsed';
    if (/tokens/i.test(message)) throw tooComplex('The query is too long');
    throw new GraphqlRequestError(400, 'graphql_parse_failed', message);
  }
  const operation = getOperationAST(document, typeof operationName === 'string' ? operationName : undefined);
  if (!operation) throw new GraphqlRequestError(400, 'graphql_bad_request', 'Name the operation to run (operationName)');
  if (isGet && operation.operation !== 'query') {
    throw new GraphqlRequestError(405, 'graphql_method_not_allowed', 'Only queries can be sent with GET; send changes with POST');
  }
  measure(document, operation.selectionSet);
  // A string literal may spell a control character as an escape (\\u0000), which the body check cannot see.
  if (hasControlCharacterLiteral(document)) {
    throw new GraphqlRequestError(400, 'invalid_characters', 'The request contains characters that are not allowed');
  }
  if (isIntrospection(document) && (options.production || !(await isAnyOrganisationAdmin(options.db, request)))) {
    throw new GraphqlRequestError(400, 'graphql_introspection_disabled', 'Introspection is not available');
  }
  // Validation against the schema is mercurius' (its graphql instance owns the schema).
}

// eslint-disable-next-line no-control-regex
const TEXT_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** True when a string literal of the document holds a control character other than tab and line breaks. */
function hasControlCharacterLiteral(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    StringValue(node) {
      if (TEXT_CONTROL.test(node.value)) found = true;
    },
  });
  return found;
}

/** Sends a refusal in the GraphQL shape the console parses (`errors[].message`, `extensions.code`). */
export function sendGraphqlRefusal(reply: FastifyReply, error: GraphqlRequestError): FastifyReply {
  if (error.statusCode === 405) reply.header('allow', 'POST');
  if (error.statusCode === 503) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
  return reply.status(error.statusCode).send({
    data: null,
    errors: [{ message: error.message, extensions: { code: error.code, statusCode: error.statusCode } }],
  });
}
