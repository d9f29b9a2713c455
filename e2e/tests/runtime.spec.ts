import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../fixtures.js';
import { E2E_DATA_ROOT } from '../support/server.js';

// Playwright's runner and the server it starts run on the Node.js LTS the project brings (docs/platform.md), never
// on the machine's Node 20.
test('the runner and the server run on a Node.js LTS (22 or later)', () => {
  expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(22);
  // The server the global setup started says its runtime in its start-up line (none when E2E_BASE_URL names a server).
  const log = join(E2E_DATA_ROOT, 'server.log');
  test.skip(!existsSync(log), 'no server started by this run');
  expect(readFileSync(log, 'utf8')).toContain(`; Node.js ${process.version})`);
});
