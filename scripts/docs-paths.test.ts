import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every file or folder path the docs name in `code` must exist, so the docs cannot drift from the tree.
 * A path may be written from the repository root or from the folder a reader is in at that point
 * (a package's root or its src/), so each is tried.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const folders = (dir: string) =>
  readdirSync(join(root, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => `${dir}/${e.name}`);
// A doc about one feature names its files from that feature's folder.
const bases = [
  ...['.', 'apps/server', 'apps/server/src', 'apps/server/src/modules', 'apps/web', 'apps/web/src', 'packages/core', 'packages/core/src', 'e2e', 'bench'],
  ...folders('apps/web/src/features'),
  ...folders('apps/server/src/modules'),
];
const docs = ['README.md', 'e2e/README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

const FILE = /\.(ts|tsx|mts|mjs|js|json|md|css|html|sql)$/;
const TOP = /^(apps|packages|e2e|bench|docs|scripts|\.ci)\//;

/** Inline code spans that name a path in this repository (not a URL, route, glob or pattern). */
function namedPaths(text: string): string[] {
  const spans = [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.trim());
  return spans.filter(
    (s) =>
      !/[\s<>*{}:?=@$|'"(),]/.test(s) &&
      !s.startsWith('/') &&
      !/(^|\/)(dist|\.data|data|node_modules|test-results)(\/|$)/.test(s) &&
      !s.includes('...') &&
      (TOP.test(s) || (s.includes('/') && FILE.test(s))),
  );
}

function exists(path: string, docDir: string): boolean {
  const clean = path.replace(/\/$/, '');
  return [docDir, ...bases].some((base) => existsSync(join(root, base, clean)));
}

describe('paths named in the docs', () => {
  it.each(docs)('%s names only paths that exist', (doc) => {
    const missing = namedPaths(readFileSync(join(root, doc), 'utf8')).filter((p) => !exists(p, dirname(doc)));
    expect(missing).toEqual([]);
  });

  it('the check itself notices a missing path', () => {
    expect(namedPaths('see `apps/server/src/no-such-file.ts` and `/sign-in` and `https://x.org/a.md`')).toEqual(['apps/server/src/no-such-file.ts']);
    expect(exists('apps/server/src/no-such-file.ts', 'docs')).toBe(false);
    expect(exists('modules/access/org-access.ts', 'docs')).toBe(true);
  });
});
