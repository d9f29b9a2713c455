import { ACTING_USER_HEADER, graphqlErrorMessage, IDEMPOTENCY_HEADER } from '@quire/core';
import { resolveContract, type Contract } from './contract.js';
import { env } from '../../config/env.js';
import { getActingUserId } from '../session/acting-user.js';
import { readErrorBody } from './api-error.js';

export interface GraphqlErrorEntry {
  message: string;
  path?: ReadonlyArray<string | number>;
  extensions?: { code?: string } & Record<string, unknown>;
}

/**
 * A failed organisation-service operation. Its message is what the banner shows (spec §8): the
 * GraphQL errors joined with newlines, else 'Something went wrong with the operation {name}'.
 */
export class GraphqlError extends Error {
  override name = 'GraphqlError';
  readonly operationName: string;
  readonly status: number;
  readonly errors: GraphqlErrorEntry[];
  /** The machine code of the first error (the server's codes, e.g. FORBIDDEN), when given. */
  readonly code: string | null;

  constructor(operationName: string, status: number, errors: GraphqlErrorEntry[], cause?: unknown) {
    super(graphqlErrorMessage(operationName, errors), cause === undefined ? undefined : { cause });
    this.operationName = operationName;
    this.status = status;
    this.errors = errors;
    this.code = errors.find((e) => typeof e.extensions?.code === 'string')?.extensions?.code ?? null;
  }
}

/** The operation's own name (`query getOrganisations { … }`), for the generic error text. @internal */
export function operationNameOf(query: string): string | null {
  return /\b(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/.exec(query)?.[1] ?? null;
}

function toErrorEntries(value: unknown): GraphqlErrorEntry[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null)
    .map((e) => ({
      message: typeof e.message === 'string' ? e.message : '',
      path: Array.isArray(e.path) ? (e.path as Array<string | number>) : undefined,
      extensions: typeof e.extensions === 'object' && e.extensions !== null ? (e.extensions as GraphqlErrorEntry['extensions']) : undefined,
    }))
    .filter((e) => e.message !== '');
}

export interface GraphqlRequest<T, V> {
  query: string;
  variables?: V;
  /** The root field whose value the call answers (e.g. 'getAdmins'). */
  field: string;
  /** The field's contract, from @quire/core (a `pick` of it for a selection): the answer is parsed with it. */
  schema: Contract<T>;
  /** Defaults to the name written in the query. */
  operationName?: string;
  signal?: AbortSignal;
  /** One key per user action that writes: the server refuses a replay of it (Idempotency-Key header). */
  idempotencyKey?: string;
}

/**
 * POST {graphql} with cookies and the acting user's header (spec §7, organisation service).
 * Resolves with `data[field]` parsed by `schema`; throws a GraphqlError when the answer carries errors or no
 * data, or does not match the contract (then with the generic text: a person never sees a parser's message).
 */
export async function graphqlRequest<T, V extends Record<string, unknown> = Record<string, unknown>>(request: GraphqlRequest<T, V>): Promise<T> {
  const operationName = request.operationName ?? operationNameOf(request.query) ?? 'unknown';
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  const actingUserId = getActingUserId();
  if (actingUserId) headers[ACTING_USER_HEADER] = actingUserId;
  if (request.idempotencyKey) headers[IDEMPOTENCY_HEADER] = request.idempotencyKey;

  let response: Response;
  try {
    response = await fetch(env.graphql, {
      method: 'POST',
      headers,
      credentials: 'include',
      body: JSON.stringify({ query: request.query, variables: request.variables ?? {}, operationName: operationNameOf(request.query) ?? undefined }),
      signal: request.signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new GraphqlError(operationName, 0, []);
  }

  let payload: { data?: unknown; errors?: unknown } = {};
  try {
    payload = (await response.json()) as typeof payload;
  } catch {
    // not JSON: treated as an answer without data below
  }
  const errors = toErrorEntries(payload.errors);
  // A refusal by 2-step verification comes before the organisation service runs (the session hook), as the REST error
  // body `{ code, message }`; its code is kept so the session can send the person to the second step or enrolment.
  const refusal = readErrorBody(payload);
  if (errors.length === 0 && !response.ok && refusal.code?.startsWith('two_step_')) errors.push({ message: refusal.message ?? refusal.code, extensions: { code: refusal.code } });
  if (errors.length > 0 || !response.ok || payload.data === undefined || payload.data === null) {
    throw new GraphqlError(operationName, response.status, errors);
  }
  const parsed = (await resolveContract(request.schema)).safeParse((payload.data as Record<string, unknown>)[request.field]);
  if (!parsed.success) throw new GraphqlError(operationName, response.status, [], parsed.error);
  return parsed.data;
}
