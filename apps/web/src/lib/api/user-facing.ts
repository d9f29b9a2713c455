import { ApiError, INVALID_RESPONSE } from './api-error.js';
import { GraphqlError } from './graphql-client.js';

/**
 * The text a person may see for a failed call: the message of an ApiError (the server's `{ code, message }`)
 * or a GraphqlError (spec §8: the errors joined, else the operation's generic text), never the message of
 * anything else (a parser's ZodError, a TypeError): null then, and the screen shows its own text.
 */
export function userFacingMessage(error: unknown): string | null {
  if (error instanceof ApiError) return error.code === INVALID_RESPONSE || !error.message.trim() ? null : error.message;
  if (error instanceof GraphqlError) return error.message.trim() ? error.message : null;
  return null;
}

/**
 * A decided refusal that asking again cannot change: a 4xx, a GraphQL answer carrying errors that are not
 * internal (a 5xx code), or an answer that broke its contract. Network failures and 5xx are worth a retry.
 */
export function isRefusal(error: unknown): boolean {
  if (error instanceof ApiError) return error.code === INVALID_RESPONSE || (error.status >= 400 && error.status < 500);
  if (error instanceof GraphqlError) {
    if (error.status >= 400 && error.status < 500) return true;
    if (error.cause !== undefined) return true;
    return error.errors.length > 0 && error.errors.every((e) => !(typeof e.extensions?.statusCode === 'number' && e.extensions.statusCode >= 500));
  }
  return false;
}
