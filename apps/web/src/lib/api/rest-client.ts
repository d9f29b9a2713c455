import { resolveContract, type Contract } from './contract.js';
import { ACTING_USER_HEADER, IDEMPOTENCY_HEADER } from '@quire/core';
import { getActingUserId } from '../session/acting-user.js';
import { ApiError, INVALID_RESPONSE, readErrorBody } from './api-error.js';

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions<T> {
  method?: HttpMethod;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded (POST {auth}/email and friends). */
  form?: Record<string, string | number | boolean | null | undefined>;
  /** Sent as it is (a file upload); its type goes in `headers`. */
  body?: Blob;
  /** Appended as a query string; undefined and null values are left out. */
  query?: Record<string, string | number | boolean | null | undefined>;
  headers?: Record<string, string>;
  /** How to read a successful answer: JSON (default), text, a Blob, or nothing. */
  responseType?: 'json' | 'text' | 'blob' | 'none';
  /** The answer's contract, from @quire/core (or lazyContract): validates (and types) a JSON answer. */
  schema?: Contract<T>;
  signal?: AbortSignal;
  /** Lets the request outlive the page (POST {api}/v2/access-log/re-auth). */
  keepalive?: boolean;
  /** One key per user action that writes: the server refuses a replay of it (Idempotency-Key header). */
  idempotencyKey?: string;
}

function withQuery(url: string, query: RequestOptions<unknown>['query']): string {
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const text = params.toString();
  if (!text) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${text}`;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * The one REST client: cookies included, JSON by default, the acting user's id in the
 * X-Acting-User header (spec §6). Any non-2xx answer or network failure throws an ApiError.
 */
export async function apiRequest<T = unknown>(url: string, options: RequestOptions<T> = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const actingUserId = getActingUserId();
  if (actingUserId) headers[ACTING_USER_HEADER] = actingUserId;
  if (options.idempotencyKey) headers[IDEMPOTENCY_HEADER] = options.idempotencyKey;

  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(options.form)) {
      if (value !== undefined && value !== null) form.append(key, String(value));
    }
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = form;
  } else if (options.body) {
    body = options.body;
  }

  let response: Response;
  try {
    response = await fetch(withQuery(url, options.query), {
      method: options.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      credentials: 'include',
      signal: options.signal,
      keepalive: options.keepalive,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError({ status: 0, code: 'NETWORK_ERROR', message: 'The server could not be reached', body: null });
  }

  if (!response.ok) {
    const errorBody = await readBody(response).catch(() => null);
    const { code, message } = readErrorBody(errorBody);
    throw new ApiError({
      status: response.status,
      code: code ?? `HTTP_${response.status}`,
      message: message ?? (typeof errorBody === 'string' && errorBody ? errorBody : response.statusText || `HTTP ${response.status}`),
      body: errorBody,
    });
  }

  const responseType = options.responseType ?? 'json';
  if (responseType === 'none' || response.status === 204) return undefined as T;
  if (responseType === 'text') return (await response.text()) as T;
  if (responseType === 'blob') return (await response.blob()) as T;
  const data = await readBody(response);
  if (!options.schema) return data as T;
  const parsed = (await resolveContract(options.schema)).safeParse(data);
  if (parsed.success) return parsed.data;
  // The answer broke the contract: an ApiError whose text is never shown (errorMessageOf falls back to the screen's own).
  throw new ApiError({ status: response.status, code: INVALID_RESPONSE, message: 'The answer did not match its contract', body: data, cause: parsed.error });
}
