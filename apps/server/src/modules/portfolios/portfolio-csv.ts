/**
 * The export's CSV: RFC 4180 (CRLF line ends, fields quoted when they hold a comma, quote or line break,
 * quotes doubled), UTF-8 with a byte-order mark so Excel reads it as UTF-8, and every text cell a
 * spreadsheet would run as a formula neutralised (OWASP "CSV injection"): a leading =, +, -, @, tab or
 * carriage return gets a leading apostrophe, which Excel and LibreOffice show as plain text.
 *
 * This file writes the header; the database writes the records under the same rules (csvCell in
 * portfolios.repository.ts), so a district's rows stream out of it without passing through JavaScript objects.
 */
import { PORTFOLIO_CSV_COLUMNS } from '@quire/core';

export const UTF8_BOM = '\uFEFF';
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** A text cell made safe for spreadsheets. */
export function neutraliseFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** One field, quoted when RFC 4180 needs it. Numbers pass as they are; text is neutralised first. */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const safe = neutraliseFormula(value);
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvRow(fields: ReadonlyArray<string | number | null | undefined>): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

/** The first bytes of every export: the BOM and the header row. */
export function csvHeader(): string {
  return UTF8_BOM + csvRow(PORTFOLIO_CSV_COLUMNS);
}
