import { createQueryId, PostgresQueryCompiler, type RootOperationNode } from 'kysely';
import pg from 'pg';

/**
 * Kysely's PostgreSQL compiler, writing every value as an escaped literal instead of a `$n` parameter.
 * Only for statements PostgreSQL cannot parameterise: `COPY (query) TO STDOUT` takes no parameters.
 * Strings go through node-postgres' `escapeLiteral` (quotes doubled, backslashes in an E'' string), so a
 * value can never end the literal, whatever `standard_conforming_strings` says.
 */
class InlineValuesCompiler extends PostgresQueryCompiler {
  protected override appendValue(value: unknown): void {
    this.append(literal(value));
  }
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return pg.escapeLiteral(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return pg.escapeLiteral(value.toISOString());
  if (value instanceof Uint8Array) return pg.escapeLiteral(`\\x${Buffer.from(value).toString('hex')}`);
  throw new TypeError(`inlineSql: no literal for a value of type ${typeof value}`);
}

/** The SQL text of a Kysely query with its values inlined as literals (see InlineValuesCompiler). */
export function inlineSql(query: { toOperationNode(): RootOperationNode }): string {
  return new InlineValuesCompiler().compileQuery(query.toOperationNode(), createQueryId()).sql;
}
