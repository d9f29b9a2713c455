import fp from 'fastify-plugin';
import { appError } from '../errors.js';

/**
 * Control characters have no meaning in anything Quire stores or looks up, and some (NUL) break the
 * database or the CSV writer. They are refused with 400 at the edge, before any route runs:
 * - in the URL (path and query), every C0 control character and DEL, raw or %-encoded;
 * - in bodies, the same except tab, line feed and carriage return (messages have lines).
 */
// eslint-disable-next-line no-control-regex
const URL_CONTROL = /[\u0000-\u001f\u007f]|%(?:[01][0-9a-f]|7f)/i;
// eslint-disable-next-line no-control-regex
const TEXT_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/** The same characters as JSON escapes or %-escapes in a raw (unparsed) body. */
const ESCAPED_CONTROL = /\\u00(?:0[0-8bcef]|1[0-9a-f]|7f)|%(?:0[0-8bcef]|1[0-9a-f]|7f)/i;

/** Content types whose raw bodies are text. */
const TEXT_TYPES = /json|x-www-form-urlencoded|^text\//i;

const invalidCharacters = () =>
  appError('invalid_characters');

/** True when a parsed value holds a string (or key) with a refused control character. */
function hasControlCharacters(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return TEXT_CONTROL.test(value);
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  if (Buffer.isBuffer(value)) return TEXT_CONTROL.test(value.toString('utf8')) || ESCAPED_CONTROL.test(value.toString('utf8'));
  if (Array.isArray(value)) return value.some((v) => hasControlCharacters(v, depth + 1));
  return Object.entries(value).some(([k, v]) => TEXT_CONTROL.test(k) || hasControlCharacters(v, depth + 1));
}

export const inputGuardPlugin = fp(
  async (app) => {
    // Callback hooks, not async ones: they run on every request, and an async hook costs a promise each time.
    app.addHook('onRequest', (request, _reply, done) => {
      done(URL_CONTROL.test(request.url) ? invalidCharacters() : undefined);
    });
    app.addHook('preValidation', (request, _reply, done) => {
      const body = request.body;
      if (body === undefined || body === null) return done();
      // Raw bodies are read as text only when they are text (an uploaded image holds any byte).
      if (Buffer.isBuffer(body) && !TEXT_TYPES.test(request.headers['content-type'] ?? '')) return done();
      done(hasControlCharacters(body) ? invalidCharacters() : undefined);
    });
  },
  { name: 'input-guard' },
);
