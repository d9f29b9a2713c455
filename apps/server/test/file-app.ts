import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { Env } from '../src/env.js';
import { consoleOrigin } from './auth.js';
import { buildTestApp, type TestApp, type TestAppOptions } from './helper.js';

/** A test file's app, with the console's Origin that every state-changing request must carry. */
export interface FileApp extends TestApp {
  origin: string;
}

/**
 * The app of a whole test file: built on a fresh database before the file's tests, closed after them. The object is
 * returned at once and filled in before the first test, so a file writes `const t = appForFile()` at its top.
 */
export function appForFile(overrides: Partial<Env> = {}, options: TestAppOptions & { timeout?: number } = {}): FileApp {
  const file = {} as FileApp;
  beforeAll(async () => {
    const built = await buildTestApp(overrides, options);
    Object.assign(file, built, { origin: consoleOrigin(built.app) });
  }, options.timeout);
  afterAll(() => file.close?.());
  return file;
}

/** A new address on the tests' school domain: one per call, so tests never meet each other's accounts or limits. */
export const uniqueEmail = (label: string): string => `${label}-${Math.random().toString(36).slice(2, 8)}@school.example.org`;

/** A body as the console's sign-in forms post it (application/x-www-form-urlencoded). */
export const formBody = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();

/**
 * `count` sign-ins to one account with a wrong password each (`wrong-0`, `wrong-1`, …), one after the other, as the
 * console's form posts them; the i-th goes to `through(i)`'s server, from its X-Forwarded-For address when it names one.
 */
export async function tryWrongPasswords(
  email: string,
  count: number,
  through: (i: number) => { app: FastifyInstance; forwardedFor?: string },
): Promise<LightMyRequestResponse[]> {
  const responses: LightMyRequestResponse[] = [];
  for (let i = 0; i < count; i++) {
    const { app, forwardedFor } = through(i);
    const headers: Record<string, string> = { origin: consoleOrigin(app), 'content-type': 'application/x-www-form-urlencoded' };
    if (forwardedFor) headers['x-forwarded-for'] = forwardedFor;
    responses.push(await app.inject({ method: 'POST', url: '/auth/email', headers, payload: formBody({ email, password: `wrong-${i}` }) }));
  }
  return responses;
}
