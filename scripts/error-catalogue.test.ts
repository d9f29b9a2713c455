import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { errorCatalogue, errorCodes } from '../packages/core/src/error-codes.js';

/**
 * The error catalogue of @quire/core and the server agree: every code the server throws or answers is in the
 * catalogue, and every code in the catalogue is one the server throws. The types refuse an unknown code where it is
 * typed; this also reads the places a code is written for a library (Better Auth, the GraphQL envelope).
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const serverSource = readdirSync(join(root, 'apps/server/src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
  .map((file) => readFileSync(join(root, 'apps/server/src', file), 'utf8'))
  .join('\n');

const CODE = `'([a-zA-Z0-9_/-]+)'`;
/** Where the server writes a code: the factory, the error classes, an LTI refusal, a `code:` of an answer. */
const THROWN = [
  new RegExp(`\\bappError\\(${CODE}`, 'g'),
  new RegExp(`\\bunauthorised\\([^()]*, ${CODE}\\)`, 'g'),
  new RegExp(`\\b(?:new AppError|super|new GraphqlRequestError)\\(\\d+, ${CODE}`, 'g'),
  new RegExp(`\\b(?:fail|signedFail|refuse)\\(${CODE}`, 'g'),
  new RegExp(`\\bcode: ${CODE}`, 'g'),
  new RegExp(`\\b(?:invalidCredentials)\\(${CODE}`, 'g'),
];

describe('the error catalogue', () => {
  it('names every code the server throws', () => {
    const thrown = new Set(THROWN.flatMap((pattern) => [...serverSource.matchAll(pattern)].map((match) => match[1]!)));
    expect(thrown.size).toBeGreaterThan(50);
    expect([...thrown].filter((code) => !(code in errorCatalogue))).toEqual([]);
  });

  it('has no code the server never throws', () => {
    expect(errorCodes.filter((code) => !serverSource.includes(`'${code}'`))).toEqual([]);
  });

  it('gives every code a 4xx or 5xx status and a message', () => {
    const wrong = Object.entries(errorCatalogue).filter(([, { status, message }]) => status < 400 || status > 599 || !message.trim());
    expect(wrong.map(([code]) => code)).toEqual([]);
  });
});
