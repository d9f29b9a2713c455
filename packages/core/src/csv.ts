/**
 * The rules of every CSV file Quire writes (teachers, inactive teachers, student portfolios, analytics charts),
 * so a spreadsheet reads each cell as the text it is, whatever its list separator:
 *
 * - RFC 4180: fields separated by commas, records ended by CRLF, a UTF-8 byte-order mark first so Excel reads
 *   UTF-8. A field is quoted, its quotes doubled, when it holds a comma, a semicolon, a quote, a CR or an LF,
 *   or starts or ends with white space.
 * - Formulas (OWASP "CSV injection"): Excel set to German, French or Dutch splits records on `;` and ignores
 *   quotes that do not open a field, so `Ann;=1+1;` would give a `=1+1` cell. Text cells are therefore read
 *   in parts, split at `;`, CR and LF; a part starting with `=`, `+`, `-`, `@`, a tab or a CR (after any
 *   quotes) gets a leading apostrophe, which Excel and LibreOffice show as plain text. Numbers stay numbers.
 *
 * The server writes most records in SQL under the same rules (apps/server/src/db/csv-cell.ts, checked against
 * these functions by its test).
 */
export type CsvCell = string | number | null | undefined;

export const CSV_BOM = '\uFEFF';
/** Characters that start a formula at the start of a cell or of a `;`/line-separated part of it. */
export const CSV_FORMULA_STARTS = '=+-@\t\r';
/** Where a part of a cell starts, and a formula (after any quotes) right after it. */
const PART_FORMULA = /(^|[;\r\n])(?="*[=+\-@\t\r])/g;
const NEEDS_QUOTES = /[;,"\r\n]|^\s|\s$/;
/**
 * Text that both rules leave as it is: no separator, quote or line break, no white space at either end, no formula
 * at the start. Most cells of a large export are such text, and one test is cheaper than a replace and a test.
 */
const PLAIN = /^(?![=+\-@"\s])[^;,"\r\n]*(?<!\s)$/;

/** Text with an apostrophe before every formula a spreadsheet could find in it (at the start or after `;`, CR, LF). */
function neutraliseCsvFormulas(text: string): string {
  return text.replace(PART_FORMULA, "$1'");
}

/** One field: text neutralised, then quoted when it needs to be; numbers as they are; null and undefined empty. */
export function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (PLAIN.test(value)) return value;
  const safe = neutraliseCsvFormulas(value);
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One record with its CRLF. */
export function csvRow(fields: readonly CsvCell[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

/** A whole file: the BOM, then every record. */
export function toCsv(rows: readonly (readonly CsvCell[])[]): string {
  return CSV_BOM + rows.map(csvRow).join('');
}
