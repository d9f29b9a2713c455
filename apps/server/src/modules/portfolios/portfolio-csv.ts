/**
 * The export's CSV, under the rules of every CSV Quire writes (csv.ts in @quire/core: RFC 4180, a BOM, formulas
 * neutralised at the start of a cell and after each `;` or line break). This file writes the header; the database
 * writes the records under the same rules (csvCell in db/csv-cell.ts), so a district's rows stream out of it
 * without passing through JavaScript objects.
 */
import { CSV_BOM, csvRow, PORTFOLIO_CSV_COLUMNS } from '@quire/core';

/** The first bytes of every export: the BOM and the header row. */
export function csvHeader(): string {
  return CSV_BOM + csvRow(PORTFOLIO_CSV_COLUMNS);
}
