import type { FastifyInstance } from 'fastify';

const FORM = 'application/x-www-form-urlencoded';

/** Parses HTML-form bodies (the spec's `form:` payloads) in the calling scope, unless a parser exists. */
export function acceptFormBodies(app: FastifyInstance): void {
  if (app.hasContentTypeParser(FORM)) return;
  app.addContentTypeParser(FORM, { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))));
  });
}

/** A form flag: true for true, 'true', '1' and 'on'. */
export function formFlag(value: unknown): boolean {
  return value === true || value === 'true' || value === '1' || value === 'on';
}
