import { csvField } from '@quire/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/helper.js';
import type { Database } from './client.js';
import { csvCell } from './csv-cell.js';
import { inlineSql } from './inline-sql.js';

let database: Database;
beforeAll(async () => {
  ({ database } = await openTestDatabase());
});
afterAll(() => database.close());

const VALUES = [
  '', 'plain', 'Zoë 😀', 'a,b', 'say "hi"', 'two\r\nlines', 'Line\nbreak', '\rCR', '=1+1', '+x', '-y', '@z', '\tTab', '\t',
  ' padded ', 'trailing nbsp\u00a0', '\u3000ideographic', '\vvertical', 'back\\slash', 'Ann;=1+1;', 'semi;colon', 'a;;b', ';',
  'x;\n@y', 'x;\r\n-2', 'Cy; x;@SUM(A1)', 'Ann;"=1+1"', '"=HYPERLINK(""x"")"', '"quoted"', '=HYPERLINK("x")', 'end;', 'a;\t',
  'ok\u2028sep', "'already", '\ufeffZed',
];

describe('csvCell (SQL) writes every cell as csvField of @quire/core', () => {
  it('for tricky text and for NULL', async () => {
    const values = sql.join(VALUES.map((v, i) => sql`(${i}::int, ${v}::text)`));
    const query = sql<{ cell: string }>`SELECT ${csvCell(sql`t.v`)} AS cell FROM (VALUES ${values}) AS t(i, v) ORDER BY t.i`;
    const { rows } = await query.execute(database.db);
    expect(rows.map((r) => r.cell)).toEqual(VALUES.map(csvField));
    // The same expression with its values written inline, as COPY needs it.
    const inline = await sql<{ cell: string }>`${sql.raw(inlineSql(query))}`.execute(database.db);
    expect(inline.rows.map((r) => r.cell)).toEqual(VALUES.map(csvField));
    const empty = await sql<{ cell: string }>`SELECT ${csvCell(sql`NULL::text`)} AS cell`.execute(database.db);
    expect(empty.rows[0]?.cell).toBe('');
  });
});
