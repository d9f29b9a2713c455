import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const modulesDir = join(root, 'apps/server/src/modules');
/** Shared code the feature modules import; it adds no routes of its own. */
const SHARED = ['access'];

describe('server modules', () => {
  it('each registers through its own <module>.plugin.ts, imported by app.ts', () => {
    const app = readFileSync(join(root, 'apps/server/src/app.ts'), 'utf8');
    const modules = readdirSync(modulesDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !SHARED.includes(entry.name))
      .map((entry) => entry.name);
    const missing = modules.filter(
      (module) => !existsSync(join(modulesDir, module, `${module}.plugin.ts`)) || !app.includes(`./modules/${module}/${module}.plugin.js`),
    );
    expect(missing).toEqual([]);
  });
});
