import { existsSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectOneLineFailure, serverStarter } from './start-server.js';

// Starts that stop before any database opens: the configuration, the port and DATA_DIR are checked first. Their
// outcome does not depend on the database, so this file runs once per run, in the server-no-database project
// (the root vitest.config.ts); ./start.test.ts starts the server on the run's database.
const { scratch, startServer, cleanUp } = serverStarter();

afterAll(cleanUp);

describe('starting the server', () => {
  it('stops with one line when DATABASE_URL is malformed', async () => {
    const run = await startServer({ DATABASE_URL: 'mysql://localhost/quire' });
    expectOneLineFailure(run, 'Invalid configuration: DATABASE_URL must be a postgres:// or postgresql:// URL');
  });

  it('stops with one line listing each bad setting', async () => {
    const run = await startServer({ PORT: 'eighty', LOG_LEVEL: 'loud' });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      'Invalid configuration: PORT must be a whole number from 0 to 65535',
      'Invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    ]);
  });

  it('stops with one line when the database cannot be reached', async () => {
    const run = await startServer({ DATABASE_URL: 'postgres://postgres@127.0.0.1:3199/quire' });
    expectOneLineFailure(run, 'Cannot reach the PostgreSQL server at 127.0.0.1:3199/quire');
  });

  it('stops with one line when DATA_DIR is not writable', async () => {
    const file = join(scratch, 'a-file');
    writeFileSync(file, 'not a folder');
    const run = await startServer({ DATA_DIR: join(file, 'data') });
    expectOneLineFailure(run, 'DATA_DIR is not writable');
  });

  it('stops with one line when the port is in use, before it opens the database or writes anything', async () => {
    const occupied: Server = createServer();
    await new Promise<void>((resolve) => occupied.listen(3151, '127.0.0.1', resolve));
    try {
      const dataDir = join(scratch, 'untouched');
      const run = await startServer({ DATA_DIR: dataDir, PORT: '3151' });
      expectOneLineFailure(run, 'Port 3151 is already in use: stop the other process or set PORT.');
      // Said at once: no embedded database and no generated secret in DATA_DIR.
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      await new Promise<void>((resolve) => occupied.close(() => resolve()));
    }
  });
});
