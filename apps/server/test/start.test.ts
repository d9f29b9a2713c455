import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { openTestDatabase } from './helper.js';
import { serverStarter } from './start-server.js';

// The server started the way `npm start` does, on the run's database. The starts that stop before a database
// opens are in ./start-refusals.test.ts.
const { scratch, startServer, cleanUp } = serverStarter();

afterAll(cleanUp);

describe('starting the server with a database', () => {
  // A fresh PostgreSQL database when the tests run against one (never the admin database itself),
  // else embedded PGlite in a scratch folder.
  let postgres: { database: Database; url?: string } | undefined;
  const database = (name: string): Record<string, string> =>
    postgres?.url ? { DATABASE_URL: postgres.url, DATA_DIR: join(scratch, name) } : { DATA_DIR: join(scratch, name) };

  beforeAll(async () => {
    if (process.env.TEST_DATABASE_URL) postgres = await openTestDatabase();
  });
  afterAll(async () => {
    await postgres?.database.close();
  });

  it('prints its URL, serves, and shuts down cleanly on SIGTERM', async () => {
    let health: number | undefined;
    const run = await startServer(
      { ...database('shared'), PORT: '3152' },
      {
        stdout: /running at/,
        then: async () => {
          health = (await fetch('http://127.0.0.1:3152/healthz')).status;
        },
      },
    );
    expect(run.stdout).toContain('Quire is running at http://127.0.0.1:3152');
    // On the Node.js LTS the project brings (scripts/runtime.test.ts), never the machine's Node 20.
    const runtime = /; Node\.js v(\d+)\.\d+\.\d+\)$/m.exec(run.stdout);
    expect(Number(runtime?.[1])).toBeGreaterThanOrEqual(22);
    expect(health).toBe(200);
    // No AUTH_SECRET: a random one is generated and kept beside the data, never a constant (docs/security.md).
    const kept = join(scratch, 'shared', 'auth-secret');
    expect(run.stdout).toContain(`AUTH_SECRET is not set: generated one and kept it in ${kept} (mode 0600)`);
    expect(statSync(kept).mode & 0o777).toBe(0o600);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  }, 150_000);
});
