import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FullConfig } from '@playwright/test';
import { startAuthPeers, type AuthPeers } from './support/auth-peers.js';
import { demoServerEnv } from './support/env.js';
import { E2E_DATA_ROOT, REPO_ROOT, findFreePort, startServer } from './support/server.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

/**
 * Starts the real server once for the whole run: a fresh DATA_DIR under e2e/.data (E2E_DATA_DIR; PGlite), or a fresh
 * PostgreSQL database when TEST_DATABASE_URL is set, with the demo district seeded. Returns the teardown.
 * With E2E_BASE_URL already set, the tests run against that server and nothing is started.
 */
export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  if (process.env.E2E_BASE_URL) return async () => undefined;

  if (!existsSync(join(REPO_ROOT, 'apps', 'web', 'dist', 'index.html'))) {
    console.warn('[e2e] apps/web/dist is missing: the console pages will not load. Run `npm run build` (npm run test:e2e does).');
  }

  const dataRoot = E2E_DATA_ROOT;
  rmSync(dataRoot, { recursive: true, force: true });
  mkdirSync(dataRoot, { recursive: true });

  let database: TestDatabase | undefined;
  let peers: AuthPeers | undefined;
  if (process.env.TEST_DATABASE_URL) database = await createTestDatabase(process.env.TEST_DATABASE_URL);

  try {
    const port = await findFreePort();
    // Mail and the Google / Microsoft stand-in for the sign-in tests (support/auth-peers.ts).
    peers = await startAuthPeers({ consoleUrl: `http://localhost:${port}`, dataRoot });
    const server = await startServer({
      port,
      logFile: join(dataRoot, 'server.log'),
      env: {
        NODE_ENV: 'development',
        DATA_DIR: join(dataRoot, 'server'),
        ...(database ? { DATABASE_URL: database.url } : {}),
        ...demoServerEnv(),
        ...peers.env,
      },
    });
    process.env.E2E_BASE_URL = server.url;
    console.log(`[e2e] server ready at ${server.url} on ${database ? `PostgreSQL (${database.name})` : 'PGlite'}, Node.js ${process.version}`);
    return async () => {
      await server.stop();
      await peers?.stop();
      await database?.drop();
    };
  } catch (error) {
    await peers?.stop();
    await database?.drop();
    throw error;
  }
}
