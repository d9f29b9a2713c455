/**
 * The export's CSV: RFC 4180 (CRLF line ends, fields quoted when they hold a comma, quote or line break,
 * quotes doubled), UTF-8 with a byte-order mark so Excel reads it as UTF-8, and every text cell a
 * spreadsheet would run as a formula neutralised (OWASP "CSV injection"): a leading =, +, -, @, tab or
 * carriage return gets a leading apostrophe, which Excel and LibreOffice show as plain text.
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

/** One exported row: a student's published item, or the student alone when nothing is published yet. */
export interface PortfolioCsvRow {
  student_id: string;
  student_number: string | null;
  display_name: string;
  email: string | null;
  grade: string | null;
  school_year: string | null;
  book_id: string | null;
  book_title: string | null;
  page_count: number | null;
  created_at: Date | string | null;
  published_at: Date | string | null;
  teacher_name: string | null;
  teacher_email: string | null;
  class_name: string | null;
  book_url: string | null;
}

const isoDate = (value: Date | string | null): string => {
  if (value === null) return '';
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
};

/** The row's CSV line, in PORTFOLIO_CSV_COLUMNS order. */
export function portfolioCsvLine(row: PortfolioCsvRow): string {
  return csvRow([
    row.student_id,
    row.student_number,
    row.display_name,
    row.email,
    row.grade,
    row.school_year,
    row.book_id,
    row.book_title,
    row.page_count,
    isoDate(row.created_at),
    isoDate(row.published_at),
    row.teacher_name,
    row.teacher_email,
    row.class_name,
    row.book_url,
  ]);
}
