import { inject } from 'vitest';
import { TENANT_FILTER_EXCEPTIONS } from './tenant-filter-exceptions.js';
import { statementFingerprint, unfilteredTenantTables } from './tenant-filter.js';

/**
 * Tables with an `organisation_id` that are not distributed by tenant (docs/scale-out.md): the tree itself, read by
 * every request, is a reference table; the mail outbox is a queue of the whole install (most of its mail belongs to no
 * organisation: sign-up, password resets), a local table.
 */
const NOT_DISTRIBUTED = new Set(['organisations', 'organisation_ancestors', 'mail_outbox']);

/** Verdicts by SQL text (the same statement runs many times): why it breaks the rule, or null. */
const verdicts = new Map<string, string | null>();
let tenantTables: ReadonlySet<string> | undefined;

/** Why `sql` breaks the tenant-filter rule (the tables it leaves unfiltered), or null when it follows it or is an exception. */
function verdict(sql: string): string | null {
  let known = verdicts.get(sql);
  if (known === undefined) {
    tenantTables ??= new Set((inject('tenantTables') ?? []).filter((table) => !NOT_DISTRIBUTED.has(table)));
    const unfiltered = unfilteredTenantTables(sql, tenantTables);
    known = unfiltered.length === 0 || statementFingerprint(sql) in TENANT_FILTER_EXCEPTIONS ? null : unfiltered.join(', ');
    verdicts.set(sql, known);
  }
  return known;
}

/**
 * Whether the app sent the statement, rather than a test reading or arranging rows on the same database (or a
 * migration): the first frame of the (async) stack in the project's own code decides. A stack with none of it (a
 * timer, an event) counts as the app's.
 */
function sentByApp(): boolean {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 80;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  for (const line of stack.split('\n').slice(1)) {
    if (!line.includes('/apps/server/') || line.includes('/node_modules/')) continue;
    if (line.includes('/src/db/client.ts') || line.includes('/test/tenant-statements.ts')) continue;
    // A migration rewrites a table whole, for every organisation at once.
    if (line.includes('/src/db/migrations/')) return false;
    return !/\.test\.ts|\/test\//.test(line);
  }
  return true;
}

/** Statements the app ran since the last check that break the rule: why, by SQL text. */
const failures = new Map<string, string>();

/** `openTestDatabase()` gives this to the database client: every statement run on a test database comes here. */
export function recordStatement(sql: string): void {
  const tables = verdict(sql);
  if (tables !== null && !failures.has(sql) && sentByApp()) failures.set(sql, tables);
}

/**
 * The check (./tenant-filter.setup.ts runs it after each file): every statement the file's tests made the app run on a
 * tenant table must say which organisation's rows it means (./tenant-filter.ts), or be a listed exception with its
 * reason (./tenant-filter-exceptions.ts). A new query without the tenant filter fails the file that runs it.
 */
export function checkTenantStatements(): void {
  const found = [...failures].map(([sql, tables]) => `- ${tables} in [${statementFingerprint(sql)}]: ${sql.replace(/\s+/g, ' ').slice(0, 400)}`);
  failures.clear();
  if (process.env.TENANT_FILTER_REPORT) {
    for (const line of found) process.stdout.write(`TENANT_FILTER ${line}\n`);
    return;
  }
  if (found.length > 0) {
    throw new Error(
      `Statements on tenant tables without a condition on organisation_id (docs/scale-out.md, "Every statement names its tenant"):\n${found.join('\n')}`,
    );
  }
}
