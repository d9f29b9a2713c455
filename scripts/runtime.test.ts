import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * Quire runs on the Node.js LTS its own files bring: the `node` package (a development dependency) puts that
 * runtime in node_modules/.bin, so every npm script, and CI's run, starts on it rather than on the machine's Node
 * (docs/platform.md). These fail when the tests run on another Node, e.g. the system's Node 20, which happens when
 * npm skipped the `node` package's install script and node_modules/.bin/node points nowhere.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const readJson = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8'));
const manifest = readJson('package.json') as { engines: { node: string }; devDependencies: Record<string, string> };

interface LockedPackage {
  version?: string;
  engines?: { node?: string } | string[];
  optional?: boolean;
  os?: string[];
  cpu?: string[];
}

/** Whether npm installs an optional package on this machine (os and cpu lists, with `!` exclusions). */
function installsHere(entry: LockedPackage): boolean {
  const allows = (list: string[] | undefined, value: string) => {
    if (!list || list.length === 0) return true;
    if (list.includes(`!${value}`)) return false;
    const named = list.filter((item) => !item.startsWith('!'));
    return named.length === 0 || named.includes(value);
  };
  return allows(entry.os, process.platform) && allows(entry.cpu, process.arch);
}

describe('the runtime', () => {
  it('is a supported Node.js LTS (22 or later), never the machine’s Node 20', () => {
    expect(semver.major(process.version)).toBeGreaterThanOrEqual(22);
  });

  it('is the Node.js the project brings, within its engines', () => {
    expect(process.versions.node).toBe(manifest.devDependencies.node);
    expect(semver.satisfies(process.version, manifest.engines.node)).toBe(true);
  });

  it('is supported by every package the lockfile installs here', () => {
    const lock = readJson('package-lock.json') as { packages: Record<string, LockedPackage> };
    const unsupported = Object.entries(lock.packages)
      .filter(([, entry]) => !entry.optional || installsHere(entry))
      .filter(([, entry]) => entry.engines && !Array.isArray(entry.engines) && entry.engines.node)
      .filter(([, entry]) => !semver.satisfies(process.version, (entry.engines as { node: string }).node))
      .map(([path, entry]) => `${path.replace(/^.*node_modules\//, '') || 'quire'}${entry.version ? `@${entry.version}` : ''} wants node ${(entry.engines as { node: string }).node}`);
    expect(unsupported).toEqual([]);
  });
});
