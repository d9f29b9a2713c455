import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureModules } from '../src/app.js';
import { buildTestApp, type TestApp } from './helper.js';

/**
 * docs/architecture.md's screen map (screen → console route → console feature → calls → server modules → tables)
 * is read here and held against the code: a renamed folder, route, call, module or table fails this test, so the
 * map a newcomer reads cannot drift from what runs.
 */

const repo = join(import.meta.dirname, '..', '..', '..');
const web = join(repo, 'apps', 'web', 'src');
const modulesDir = join(repo, 'apps', 'server', 'src', 'modules');
const architecture = readFileSync(join(repo, 'docs', 'architecture.md'), 'utf8');

interface Row {
  screen: string;
  routes: string[];
  features: string[];
  calls: string[];
  modules: string[];
  tables: string[];
}

const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);

function screenMap(): Row[] {
  const section = architecture.split('## Screen map')[1]?.split('\n## ')[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| screen') && !line.startsWith('| ---'))
    .map((line) => {
      const [screen = '', routes = '', features = '', calls = '', modules = '', tables = ''] = line.slice(1, -1).split(' | ').map((c) => c.trim());
      return { screen, routes: ticked(routes), features: ticked(features), calls: ticked(calls), modules: ticked(modules), tables: ticked(tables) };
    });
}

/** All text of a folder's source files, tests left out. */
function sourceOf(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => readFileSync(join(dir, file), 'utf8'))
    .join('\n');
}

/** A registered route pattern (`/api/:teacherId`, `/identity/*`) as a regular expression over concrete paths. */
const routeRegExp = (url: string) =>
  new RegExp(`^${url.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\\\*/g, '.*').replace(/\*/g, '.*').replace(/:[A-Za-z0-9_]+/g, '[^/]+')}$`);

const rows = screenMap();
let t: TestApp;
let tables: Set<string>;

beforeAll(async () => {
  t = await buildTestApp();
  const { rows: found } = await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`.execute(t.app.db);
  tables = new Set(found.map((r) => r.name));
});

afterAll(() => t.close());

describe('the screen map in docs/architecture.md', () => {
  it('has a row for every screen', () => {
    expect(rows.length).toBeGreaterThanOrEqual(10);
    for (const row of rows) expect(row.routes.length, row.screen).toBeGreaterThan(0);
  });

  it('names every console route the router has, and only those', async () => {
    const { routePatterns } = (await import(join(web, 'config', 'paths.ts'))) as {
      routePatterns: { unsupported: string; signIn: Record<string, string>; account: Record<string, string>; org: string; orgScreens: Record<string, string> };
    };
    const org = `/${routePatterns.org}`;
    const expected = [routePatterns.unsupported, ...Object.values(routePatterns.signIn), ...Object.values(routePatterns.account), org, ...Object.values(routePatterns.orgScreens).map((s) => `${org}/${s}`)];
    expect(new Set(rows.flatMap((r) => r.routes))).toEqual(new Set(expected));
  });

  it('names console folders that exist, and every feature folder', () => {
    for (const folder of rows.flatMap((r) => r.features)) expect(existsSync(join(web, folder)), folder).toBe(true);
    const named = new Set(rows.flatMap((r) => r.features));
    for (const feature of readdirSync(join(web, 'features'))) {
      if (statSync(join(web, 'features', feature)).isDirectory()) expect(named.has(`features/${feature}`), `features/${feature}`).toBe(true);
    }
  });

  it('names server modules that exist, and mentions every module', () => {
    for (const module of rows.flatMap((r) => r.modules)) expect(existsSync(join(modulesDir, module)), module).toBe(true);
    const section = architecture.split('## Screen map')[1]?.split('\n## ')[0] ?? '';
    for (const module of readdirSync(modulesDir)) expect(section.includes(`\`${module}\``), module).toBe(true);
  });

  it('names calls that exist, each served by a module of its row', () => {
    const routes = [...t.app.routeModules].map(([key, module]) => {
      const [method = '', url = ''] = key.split(' ');
      return { method, pattern: routeRegExp(url), url, module };
    });
    for (const row of rows) {
      for (const call of row.calls) {
        const rest = /^(GET|POST|PATCH|PUT|DELETE) (\/\S*)$/.exec(call);
        if (rest) {
          const path = (rest[2] as string).replace(/\{[^}]+\}/g, 'x1');
          const candidates = routes.filter((r) => r.method === rest[1] && r.pattern.test(path));
          // The most specific route wins, as in the router: the one with the fewest parameters and wildcards.
          const served = candidates.sort((a, b) => (a.url.match(/[:*]/g)?.length ?? 0) - (b.url.match(/[:*]/g)?.length ?? 0))[0];
          expect(served, `${row.screen}: ${call} is not a route`).toBeDefined();
          expect(row.modules, `${row.screen}: ${call} is served by ${served?.module}`).toContain(served?.module);
        } else {
          const owners = featureModules.filter((m) => m.graphql && new RegExp(`^\\s+${call}\\s*[(:]`, 'm').test(m.graphql.typeDefs)).map((m) => m.name);
          expect(owners, `${row.screen}: ${call} is not a GraphQL field`).not.toEqual([]);
          expect(owners.some((o) => row.modules.includes(o)), `${row.screen}: ${call} is served by ${owners.join(', ')}`).toBe(true);
        }
      }
    }
  });

  it('names tables that exist, each used by a module of its row', () => {
    for (const row of rows) {
      const source = row.modules.map((m) => sourceOf(join(modulesDir, m))).join('\n');
      for (const table of row.tables) {
        expect(tables.has(table), `${row.screen}: table ${table}`).toBe(true);
        expect(new RegExp(`['"\\s]${table}['"\\s]`).test(source), `${row.screen}: no module of the row names ${table}`).toBe(true);
      }
    }
  });
});
