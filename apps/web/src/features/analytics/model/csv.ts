/** A chart's figures as CSV: the rules every CSV of Quire follows live once in @quire/core (csv.ts). */
import { saveFile } from '../../../lib/save-file.js';

export { toCsv } from '@quire/core';

/** Offers the text as a file download. */
export function downloadCsv(fileName: string, csv: string): void {
  saveFile(new Blob([csv], { type: 'text/csv;charset=utf-8' }), fileName);
}

/** 'Maple Grove High School', 'Sessions by OS', '20240101' → 'maple-grove-high-school-sessions-by-os-20240101.csv'. */
export function csvFileName(...parts: string[]): string {
  const slug = parts.map((p) => p.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')).filter(Boolean).join('-');
  return `${slug || 'analytics'}.csv`;
}
