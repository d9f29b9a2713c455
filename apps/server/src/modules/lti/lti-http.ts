import type { FastifyReply, FastifyRequest } from 'fastify';
import { LTI_MAX_PARAMETERS } from '@quire/core';

/**
 * What the LTI routes' pages share: the form's raw parameters, the headers of a page a platform may frame, and an HTML
 * answer that no cache keeps.
 */

/**
 * The route options of every form a platform (or a page of the tool inside its frame) posts: no console Origin check,
 * a launch's size limit, and an error handler that answers a refused body with a page.
 */
export interface FormPostOptions {
  config: { csrf: false };
  bodyLimit: number;
  errorHandler: (error: Error, request: FastifyRequest, reply: FastifyReply) => unknown;
}

function isPair(entry: unknown): entry is [string, string] {
  return Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string' && typeof entry[1] === 'string';
}

/** The pairs the form parser gave for a body; any other body (e.g. a JSON array) brings no parameters. */
export function formPairs(body: unknown): Array<[string, string]> {
  return Array.isArray(body) ? (body as unknown[]).filter(isPair) : [];
}

/** The parameters of a form or query, in order, duplicates kept; null when there are more than a launch carries. */
export function pairs(text: string): Array<[string, string]> | null {
  // Counted before parsing: '&' separates parameters, so a body with more of them is refused without building a list.
  let separators = 0;
  for (let i = text.indexOf('&'); i >= 0 && separators <= LTI_MAX_PARAMETERS; i = text.indexOf('&', i + 1)) separators += 1;
  if (separators >= LTI_MAX_PARAMETERS) {
    const all = [...new URLSearchParams(text)];
    return all.length > LTI_MAX_PARAMETERS ? null : all;
  }
  return [...new URLSearchParams(text)];
}

/** The first value of each parameter, cut to 4,096 characters (the launch pages read no longer value). */
export function firstValues(entries: ReadonlyArray<readonly [string, string]>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of entries) if (out[name] === undefined) out[name] = value.slice(0, 4096);
  return out;
}

/**
 * LTI 1.3 pages (docs/lti.md "LTI 1.3") may be shown inside the platform's frame: framing is allowed here. `formAction`
 * and `script` widen the policy for pages that need it: the deep linking picker posts to the tool, an answer runs its
 * one script (by hash). `formAction: null` names no form-action: that form goes to the platform, which may redirect it.
 */
export function framable(reply: FastifyReply, page: { formAction?: string | null; script?: string } = {}): void {
  reply.removeHeader('x-frame-options');
  const formAction = page.formAction === undefined ? "; form-action 'none'" : page.formAction === null ? '' : `; form-action ${page.formAction}`;
  const script = page.script ? `; script-src ${page.script}` : '';
  reply.header('content-security-policy', `default-src 'none'; style-src 'unsafe-inline'; frame-ancestors *; base-uri 'none'${formAction}${script}`);
}

/** An HTML page, never cached. */
export function htmlPage(reply: FastifyReply, status: number, body: string): FastifyReply {
  reply.header('cache-control', 'no-store');
  return reply.code(status).type('text/html; charset=utf-8').send(body);
}

/** The platform's `launch_presentation_return_url`, when it is an http(s) address to send a refusal back to. */
export function safeReturnUrl(value: string | undefined): URL | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}
