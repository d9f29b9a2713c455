import { createHash } from 'node:crypto';
import { CompiledQuery, type Kysely, type QueryResult, type RawBuilder } from 'kysely';

/**
 * Statements whose SQL text is built once per shape, then only given each request's values: for a hot read whose
 * statement is large (the Teachers page: session, access, total and page in one), building and compiling it with
 * Kysely cost about 0.2 ms of the server's CPU a request, a fifth of all it spent on one (docs/performance-log.md,
 * "Teachers").
 *
 * The builder never sees a request's values: it gets the shape (what decides the SQL text: which filters, which order,
 * which kind of window) and a slot for each value, which it uses where it would use the value. The compiled
 * statement keeps the slots as its parameters; each execution binds them by name. A builder that read a value from
 * anywhere else would bake one request's value into every later request of the shape, so the first compile of a shape
 * refuses any parameter that is not a slot, other than a boolean, a number or null (the constants a query writes, such
 * as a role number). A value derived from a request value (a LIKE pattern, an offset plus a limit) is a value of its
 * own, computed before the statement runs.
 *
 * On PostgreSQL each shape's text is also a named prepared statement (see preparedName and db/client.ts): each
 * connection parses it once, which saved PostgreSQL about 0.3 ms of 2.4 per Teachers page. The plan stays PostgreSQL's
 * choice (plan_cache_mode auto: custom plans while they are cheaper than a generic one).
 */

/** One value of a request, by name, in a statement compiled once per shape. */
class Slot {
  constructor(readonly name: string) {}
}

/** A builder's slots: every property read is the slot of that value (typed as the value, to build with). */
function slotsFor<V>(): V {
  const made = new Map<string, Slot>();
  return new Proxy({} as Record<string, Slot>, {
    get: (_target, name) => {
      if (typeof name !== 'string') return undefined;
      let slot = made.get(name);
      if (!slot) made.set(name, (slot = new Slot(name)));
      return slot;
    },
  }) as V;
}

/** The prepared statement's name of each shape's text kept now (db/client.ts sends these texts by name). */
const preparedNames = new Map<string, string>();

/** The name to prepare `text` under, when it is a shape's text: derived from the text, so equal texts share one name. */
export function preparedName(text: string): string | undefined {
  return preparedNames.get(text);
}

interface Template {
  sql: string;
  parameters: readonly unknown[];
}

/** Shapes kept before the oldest is dropped: the Teachers page has a few hundred that a console can ask for. */
const DEFAULT_MAX_SHAPES = 1000;

export class StatementShapes<Database, Shape, Values extends object, Row> {
  readonly #templates = new Map<string, Template>();
  readonly #build: (db: Kysely<Database>, shape: Shape, slots: Values) => RawBuilder<Row>;
  readonly #maxShapes: number;
  /** How many statements have been built and compiled (for the tests). */
  compiles = 0;

  constructor(build: (db: Kysely<Database>, shape: Shape, slots: Values) => RawBuilder<Row>, maxShapes = DEFAULT_MAX_SHAPES) {
    this.#build = build;
    this.#maxShapes = maxShapes;
  }

  /** Runs the statement of `shape` with `values`; `key` names the shape (equal shapes, equal keys). */
  async execute(db: Kysely<Database>, key: string, shape: Shape, values: Values): Promise<QueryResult<Row>> {
    let template = this.#templates.get(key);
    if (!template) {
      template = this.#compile(db, shape);
      if (this.#templates.size >= this.#maxShapes) {
        const oldest = this.#templates.keys().next().value!;
        preparedNames.delete(this.#templates.get(oldest)!.sql);
        this.#templates.delete(oldest);
      }
      this.#templates.set(key, template);
      preparedNames.set(template.sql, `quire_${createHash('sha256').update(template.sql).digest('hex').slice(0, 40)}`);
    }
    const parameters = template.parameters.map((p) => {
      if (!(p instanceof Slot)) return p;
      const value = (values as Record<string, unknown>)[p.name];
      if (value === undefined) throw new Error(`StatementShapes: no value for the slot '${p.name}'`);
      return value;
    });
    return db.executeQuery(CompiledQuery.raw(template.sql, parameters)) as Promise<QueryResult<Row>>;
  }

  #compile(db: Kysely<Database>, shape: Shape): Template {
    this.compiles++;
    const { sql, parameters } = this.#build(db, shape, slotsFor<Values>()).compile(db);
    for (const p of parameters) {
      // NaN: arithmetic on a slot (a value derived from a request value belongs in the values, as a slot of its own).
      if (p instanceof Slot || p === null || typeof p === 'boolean' || (typeof p === 'number' && !Number.isNaN(p))) continue;
      throw new Error(`StatementShapes: a parameter that is not a slot (${typeof p}): a builder must take every request value from its slots`);
    }
    return { sql, parameters };
  }
}
