import { sql, type Kysely } from 'kysely';

/**
 * The partitioned-schema mode of the server tests (docs/scale-out.md, "Checked: every tenant table partitioned by
 * organisation"): Citus cannot run on these machines, but PostgreSQL's declarative partitioning enforces the rule Citus
 * puts on a distributed table: every primary key and unique constraint includes the distribution column. After the
 * real migrations, each tenant table (one with an `organisation_id` column, minus the reference and local tables below)
 * is remade as a table PARTITIONED BY HASH (organisation_id) with the same columns, defaults, checks, indexes, triggers
 * and foreign keys. A key that lacks `organisation_id` gets it appended, and is reported: the list is checked against
 * the reviewed one in ./partitioned-schema.test.ts, so a new key that is unique across organisations is noticed.
 * Then the app's own statements run on that schema (ON CONFLICT targets must name a whole key, and so on).
 */

/**
 * Tenant tables that would not be distributed by tenant on Citus, each with its reason (docs/scale-out.md): left as
 * they are by the conversion, and not checked by the tenant-filter rule either (./tenant-statements.ts).
 */
export const NOT_DISTRIBUTED: Readonly<Record<string, string>> = {
  organisation_ancestors: 'reference table: the tree, read by every access check, copied to every node',
  lti_credentials:
    'reference table: a launch finds its organisation by the consumer key alone, so the key is unique across the install; at most one small row per organisation',
  lti_platforms:
    'reference table: an LTI 1.3 launch and its registration find the organisation by issuer and client id alone, unique across the install; a few small rows per organisation',
  mail_outbox: 'local table: the queue of the whole install, most of its mail for no organisation (sign-up, password resets)',
};

/** How many hash partitions each table gets: enough that two organisations usually land in different ones. */
export const PARTITIONS = 4;

export interface PartitionedSchema {
  /** The tables now partitioned by `organisation_id`, by name. */
  partitioned: string[];
  /** Each primary key or unique constraint/index that did not include `organisation_id`: `table: KEY (columns)`, before it was extended. */
  extended: string[];
}

interface Row {
  [column: string]: unknown;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Where the parenthesis that `open` opens in `text` closes. */
function closingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  throw new Error(`Unbalanced parentheses in: ${text}`);
}

/**
 * Remakes every tenant table of the `public` schema as a hash-partitioned table, in one transaction. The tables must be
 * empty (a freshly migrated template): rows are not copied.
 */
export async function partitionTenantTables<T>(db: Kysely<T>): Promise<PartitionedSchema> {
  return db.transaction().execute(async (trx) => {
    const run = async (statement: string) => void (await sql.raw(statement).execute(trx));
    const query = async <T extends Row>(statement: string) => (await sql.raw<T>(statement).execute(trx)).rows;

    const tables = (
      await query<{ name: string }>(`
        SELECT c.relname AS name FROM pg_class c
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'organisation_id' AND NOT a.attisdropped
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND NOT c.relispartition
        ORDER BY 1`)
    )
      .map((row) => row.name)
      .filter((name) => !(name in NOT_DISTRIBUTED));
    const list = tables.map((t) => `'${t}'`).join(', ');
    const nonEmpty = await query<{ name: string }>(
      tables.map((t) => `SELECT '${t}' AS name WHERE EXISTS (SELECT 1 FROM public.${quote(t)})`).join(' UNION ALL '),
    );
    if (nonEmpty.length > 0) throw new Error(`Cannot partition tables that hold rows: ${nonEmpty.map((r) => r.name).join(', ')}`);

    // Foreign keys from or to a converted table are dropped first and made again last, against the new tables.
    const foreignKeys = await query<{ owner: string; name: string; definition: string }>(`
      SELECT conrelid::regclass::text AS owner, conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint
      WHERE contype = 'f' AND (conrelid::regclass::text IN (${list}) OR confrelid::regclass::text IN (${list}))
      ORDER BY 1, 2`);
    for (const fk of foreignKeys) await run(`ALTER TABLE public.${quote(fk.owner)} DROP CONSTRAINT ${quote(fk.name)}`);

    const extended: string[] = [];
    for (const table of tables) {
      const t = quote(table);
      const keys = await query<{ name: string; kind: 'p' | 'u'; columns: string[]; deferrable: boolean; index: string }>(`
        SELECT con.conname AS name, con.contype AS kind, con.condeferrable AS deferrable, pg_get_indexdef(con.conindid) AS index,
          array(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n ORDER BY k.o)::text[] AS columns
        FROM pg_constraint con WHERE con.conrelid = 'public.${t}'::regclass AND con.contype IN ('p', 'u') ORDER BY con.contype, con.conname`);
      const indexes = await query<{ name: string; definition: string; unique: boolean; columns: string[] }>(`
        SELECT i.relname AS name, pg_get_indexdef(x.indexrelid) AS definition, x.indisunique AS unique,
          array(SELECT a.attname FROM unnest(x.indkey::int2[]) k(n) JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.n)::text[] AS columns
        FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
        WHERE x.indrelid = 'public.${t}'::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conindid = x.indexrelid AND con.conrelid = x.indrelid)
        ORDER BY 1`);
      const triggers = await query<{ definition: string }>(`
        SELECT pg_get_triggerdef(oid) AS definition FROM pg_trigger WHERE tgrelid = 'public.${t}'::regclass AND NOT tgisinternal ORDER BY tgname`);
      // A serial column's sequence belongs to its table and would go with it: it is handed to the new table.
      const sequences = await query<{ sequence: string; column: string }>(`
        SELECT s.relname AS sequence, a.attname AS column FROM pg_depend d
        JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
        JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
        WHERE d.refobjid = 'public.${t}'::regclass AND d.deptype = 'a'`);

      for (const s of sequences) await run(`ALTER SEQUENCE public.${quote(s.sequence)} OWNED BY NONE`);
      await run(`ALTER TABLE public.${t} RENAME TO ${quote(`${table}__plain`)}`);
      await run(`
        CREATE TABLE public.${t} (LIKE public.${quote(`${table}__plain`)}
          INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING GENERATED INCLUDING IDENTITY INCLUDING COMMENTS INCLUDING STORAGE)
        PARTITION BY HASH (organisation_id)`);
      const comment = (await query<{ comment: string | null }>(`SELECT obj_description('public.${quote(`${table}__plain`)}'::regclass, 'pg_class') AS comment`))[0]?.comment;
      await run(`DROP TABLE public.${quote(`${table}__plain`)}`);
      if (comment) await run(`COMMENT ON TABLE public.${t} IS '${comment.replace(/'/g, "''")}'`);
      for (const s of sequences) await run(`ALTER SEQUENCE public.${quote(s.sequence)} OWNED BY public.${t}.${quote(s.column)}`);
      for (let i = 0; i < PARTITIONS; i++) {
        await run(`CREATE TABLE public.${quote(`${table}__p${i}`)} PARTITION OF public.${t} FOR VALUES WITH (MODULUS ${PARTITIONS}, REMAINDER ${i})`);
      }

      for (const key of keys) {
        if (key.deferrable || / INCLUDE \(/.test(key.index)) throw new Error(`Not handled by the conversion: ${table}.${key.name} (${key.index})`);
        const word = key.kind === 'p' ? 'PRIMARY KEY' : 'UNIQUE';
        const nullsNotDistinct = / NULLS NOT DISTINCT/.test(key.index) ? ' NULLS NOT DISTINCT' : '';
        const columns = key.columns.includes('organisation_id') ? key.columns : [...key.columns, 'organisation_id'];
        if (columns !== key.columns) extended.push(`${table}: ${word} (${key.columns.join(', ')})`);
        await run(`ALTER TABLE public.${t} ADD CONSTRAINT ${quote(key.name)} ${word}${nullsNotDistinct} (${columns.map(quote).join(', ')})`);
      }
      for (const index of indexes) {
        let definition = index.definition;
        if (index.unique && !index.columns.includes('organisation_id')) {
          // Append the column to the key list: `... USING method (a, b) [WHERE ...]`.
          const open = definition.indexOf('(', definition.indexOf(' USING '));
          const close = closingParen(definition, open);
          extended.push(`${table}: UNIQUE INDEX ${index.name} ${definition.slice(open, close + 1)}`);
          definition = `${definition.slice(0, close)}, organisation_id${definition.slice(close)}`;
        }
        await run(definition);
      }
      for (const trigger of triggers) await run(trigger.definition);
    }

    for (const fk of foreignKeys) await run(`ALTER TABLE public.${quote(fk.owner)} ADD CONSTRAINT ${quote(fk.name)} ${fk.definition}`);
    return { partitioned: tables, extended };
  });
}
