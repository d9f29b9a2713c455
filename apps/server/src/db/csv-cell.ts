import { sql, type RawBuilder } from 'kysely';
import { CSV_FORMULA_STARTS } from '@quire/core';

/**
 * csvField of @quire/core (csv.ts) as one SQL expression, for CSV records the database writes (the teachers
 * and portfolio exports stream from COPY): NULL and '' are empty; an apostrophe goes before a formula at the
 * start of the text and after each `;`, CR and LF; the text is quoted, quotes doubled, when it holds a comma,
 * a semicolon, a quote, a CR or an LF, or starts (tab aside: it gets the apostrophe) or ends with white space.
 * csv-cell.test.ts checks it against csvField. Cheap string tests decide before a regular expression runs.
 */

/** What JavaScript's \s matches (csvField's rule for white space at the ends). */
const WHITE_SPACE = '\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';
/** The first characters that may need an apostrophe: a formula's, or a quote before one. */
const RISKY_FIRST = `${CSV_FORMULA_STARTS}"`;
/** A part's start (the text's, or after `;`, CR, LF) followed by a formula after any quotes; \1 keeps the separator. */
const PART_FORMULA = '(^|[;\r\n])(?="*[-=+@\t\r])';
const NEEDS_QUOTES = '[;,"\r\n]';
const PART_SEPARATORS = '[;\r\n]';

/** `value` must be a column reference (or another expression cheap to repeat): it is used several times. */
export function csvCell(value: RawBuilder<unknown>): RawBuilder<string> {
  const text = sql<string>`(${value})::text`;
  const neutralised = sql<string>`CASE WHEN strpos(${RISKY_FIRST}, left(${text}, 1)) > 0 OR ${text} ~ ${PART_SEPARATORS}
    THEN regexp_replace(${text}, ${PART_FORMULA}, ${"\\1'"}, 'g') ELSE ${text} END`;
  return sql<string>`(CASE
    WHEN ${text} IS NULL OR ${text} = '' THEN ''
    WHEN ${text} ~ ${NEEDS_QUOTES} OR strpos(${WHITE_SPACE}, right(${text}, 1)) > 0
      OR (strpos(${WHITE_SPACE}, left(${text}, 1)) > 0 AND left(${text}, 1) <> ${'\t'})
      THEN '"' || replace(${neutralised}, '"', '""') || '"'
    ELSE ${neutralised} END)`;
}
