/**
 * CSV of a chart's figures (RFC 4180): fields separated by commas, records by CRLF, a field with a
 * comma, quote or line break quoted with its quotes doubled. A UTF-8 byte-order mark first so Excel
 * reads the text as UTF-8. A text field starting with =, +, -, @, tab or carriage return is prefixed
 * with an apostrophe so a spreadsheet never runs it as a formula (OWASP "CSV injection"); numbers stay numbers.
 */
export type CsvCell = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value;
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(rows: readonly (readonly CsvCell[])[]): string {
  return `\uFEFF${rows.map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;
}

/** Offers the text as a file download. */
export function downloadCsv(fileName: string, csv: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** 'Maple Grove High School', 'Sessions by OS', '20240101' → 'maple-grove-high-school-sessions-by-os-20240101.csv'. */
export function csvFileName(...parts: string[]): string {
  const slug = parts.map((p) => p.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')).filter(Boolean).join('-');
  return `${slug || 'analytics'}.csv`;
}
