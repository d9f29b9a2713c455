import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { envSchema } from '../../apps/server/src/env.js';
import { expect, test } from '../fixtures.js';
import { REPO_ROOT } from '../support/server.js';

// The README's configuration table is how an operator learns the settings: it must name every variable
// the server reads, with the default the server really uses.
test('README documents every configuration variable with its default', () => {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const rows = new Map(
    readme
      .split('\n')
      .map((line) => /^\| `([A-Z0-9_]+)` \|(.*)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1] ?? '', m[2] ?? '']),
  );
  const defaults = envSchema.parse({}) as Record<string, unknown>;
  const problems: string[] = [];
  for (const name of Object.keys(envSchema.shape)) {
    const row = rows.get(name);
    if (row === undefined) {
      problems.push(`${name} is missing from the README's configuration table`);
      continue;
    }
    const value = defaults[name];
    if (value !== undefined && value !== '' && !row.includes(`\`${String(value)}\``)) {
      problems.push(`${name}: the README should give its default \`${String(value)}\``);
    }
  }
  for (const name of rows.keys()) {
    if (!(name in envSchema.shape)) problems.push(`${name} is in the README but the server does not read it`);
  }
  expect(problems).toEqual([]);
});
