import { fingerprintSync, loadModule, parseSync } from 'libpg-query';

/**
 * The tenant-filter rule (docs/scale-out.md, "Every statement names its tenant"): a statement that reads or writes a
 * tenant table (one with an `organisation_id` column) says which organisation's rows it means, so that on a database
 * sharded by tenant it goes to one shard, and so that a query forgetting the tenant cannot read another school's rows.
 *
 * The statements are read with PostgreSQL's own parser (libpg-query), not with patterns. Each reference to a tenant
 * table must be matched by a condition on that table's `organisation_id` somewhere in the statement: a column written
 * `alias.organisation_id` (or `table.organisation_id`), or an unqualified `organisation_id`; an INSERT must set the
 * column. A table reached by its primary key from such a row (`licenses l ON l.id = m.license_id`, `m` filtered) is
 * named by that row's tenant, so it counts as filtered too. Where a condition sits (WHERE, a join's ON, a sub-select)
 * is not checked: the rule catches the query that forgot the tenant altogether, which is the mistake that leaks or fans
 * out.
 */

await loadModule();

interface TableReference {
  table: string;
  /** The name the statement uses for it: its alias, else the table's name. */
  name: string;
}

/** `a.x = b.y`: two qualified columns compared for equality. */
interface Equality {
  left: [string, string];
  right: [string, string];
}

interface Found {
  tables: TableReference[];
  /** The names (alias or table) whose `organisation_id` is mentioned; '*' for an unqualified one. */
  tenantColumns: Set<string>;
  equalities: Equality[];
}

const qualified = (node: unknown): [string, string] | null => {
  const fields = (node as { ColumnRef?: { fields?: { String?: { sval?: string } }[] } } | undefined)?.ColumnRef?.fields;
  const names = fields?.map((field) => field.String?.sval);
  return names?.length === 2 && names[0] && names[1] ? [names[0], names[1]] : null;
};

/** Every table reference, every `organisation_id` column and every column equality, anywhere in the parse tree. */
function collect(node: unknown, found: Found): void {
  if (Array.isArray(node)) {
    for (const item of node) collect(item, found);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  const { tables, tenantColumns } = found;
  // A RangeVar's body: wrapped in `{ RangeVar: … }` in a FROM list, bare as an UPDATE's, DELETE's or INSERT's `relation`.
  const rangeVar = record as { relname?: unknown; schemaname?: string; alias?: { aliasname?: string } };
  if (typeof rangeVar.relname === 'string' && (rangeVar.schemaname === undefined || rangeVar.schemaname === 'public')) {
    tables.push({ table: rangeVar.relname, name: rangeVar.alias?.aliasname ?? rangeVar.relname });
  }
  const columnRef = record.ColumnRef as { fields?: { String?: { sval?: string } }[] } | undefined;
  if (columnRef?.fields) {
    const names = columnRef.fields.map((field) => field.String?.sval);
    // `organisation_id`, or a column naming another organisation of the same tree (`allocated_from_organisation_id`).
    if (names.at(-1)?.endsWith('organisation_id')) tenantColumns.add(names.length > 1 ? (names.at(-2) ?? '') : '*');
  }
  const insert = record.InsertStmt as { relation?: { relname?: string; alias?: { aliasname?: string } }; cols?: { ResTarget?: { name?: string } }[] } | undefined;
  if (insert?.relation?.relname && insert.cols?.some((col) => col.ResTarget?.name === 'organisation_id')) {
    tenantColumns.add(insert.relation.alias?.aliasname ?? insert.relation.relname);
  }
  const expression = record.A_Expr as { kind?: string; name?: { String?: { sval?: string } }[]; lexpr?: unknown; rexpr?: unknown } | undefined;
  if (expression?.kind === 'AEXPR_OP' && expression.name?.[0]?.String?.sval === '=') {
    const left = qualified(expression.lexpr);
    const right = qualified(expression.rexpr);
    if (left && right) found.equalities.push({ left, right });
  }
  for (const value of Object.values(record)) collect(value, found);
}

/** The names that are filtered: by their own `organisation_id`, or reached by primary key from a filtered name. */
function filteredNames(found: Found): Set<string> {
  const filtered = new Set(found.tenantColumns);
  for (let grew = true; grew; ) {
    grew = false;
    for (const { left, right } of found.equalities) {
      for (const [key, from] of [
        [left, right],
        [right, left],
      ] as const) {
        if (key[1] === 'id' && filtered.has(from[0]) && !filtered.has(key[0])) {
          filtered.add(key[0]);
          grew = true;
        }
      }
    }
  }
  return filtered;
}

/** The statements that read or write rows; others (DDL, TRUNCATE, SET, transaction control) are not checked. */
const ROW_STATEMENTS = new Set(['SelectStmt', 'InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt']);

/** The tenant tables `sql` refers to without a condition on their `organisation_id` (empty when it follows the rule). */
export function unfilteredTenantTables(sql: string, tenantTables: ReadonlySet<string>): string[] {
  const found: Found = { tables: [], tenantColumns: new Set(), equalities: [] };
  const parsed = parseSync(sql) as { stmts?: { stmt?: Record<string, unknown> }[] };
  const rowStatements = (parsed.stmts ?? []).filter((entry) => Object.keys(entry.stmt ?? {}).some((kind) => ROW_STATEMENTS.has(kind)));
  collect(rowStatements, found);
  const filtered = filteredNames(found);
  const unfiltered = found.tables.filter((ref) => tenantTables.has(ref.table) && !filtered.has('*') && !filtered.has(ref.name));
  return [...new Set(unfiltered.map((ref) => ref.table))].sort();
}

/** A statement's shape, the same for every value and list length it is run with (libpg-query's fingerprint). */
export function statementFingerprint(sql: string): string {
  return fingerprintSync(sql);
}
