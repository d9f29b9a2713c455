import { secondsToHours, type AnalyticsGranularity, type AnalyticsPeriodicCount, type AnalyticsSeries } from '@quire/core';
import { periodLabel } from './time-range.js';

/** A chart's figures as a table: the text alternative on screen and the CSV download. */
export interface ChartTable {
  columns: string[];
  /** First cell: the period's label; then numbers. */
  rows: (string | number)[][];
  /** Sums of every number column over the range. */
  totals: number[];
  /** Series the chart draws, in column order (after the date). */
  keys: string[];
}

/** Names beyond this many are summed as 'Other' (e-mail domains can be many). */
const MAX_NAMES = 8;
const OTHER = 'Other';

const oneDecimal = (n: number) => Math.round(n * 10) / 10;

/** The names a chart shows: the largest first, the rest as Other. */
function shownNames(series: AnalyticsSeries): string[] {
  return series.names.length > MAX_NAMES ? [...series.names.slice(0, MAX_NAMES - 1), OTHER] : series.names;
}

/** Values by shown name for one row (names beyond the shown ones summed as Other). */
function valuesByShownName(values: Record<string, number>, shown: string[]): Record<string, number> {
  const result: Record<string, number> = Object.fromEntries(shown.map((n) => [n, 0]));
  const hasOther = shown.includes(OTHER);
  for (const [name, value] of Object.entries(values)) {
    if (name in result && !(hasOther && name === OTHER)) result[name] = (result[name] ?? 0) + value;
    else if (hasOther) result[OTHER] = (result[OTHER] ?? 0) + value;
  }
  return result;
}

/** The series with its names shown another way (a sign-in provider's id as its name); names that meet are summed. */
export function renameSeries(series: AnalyticsSeries, rename: (name: string) => string): AnalyticsSeries {
  return {
    ...series,
    names: [...new Set(series.names.map(rename))],
    rows: series.rows.map((row) => {
      const values: Record<string, number> = {};
      for (const [name, value] of Object.entries(row.values)) values[rename(name)] = (values[rename(name)] ?? 0) + value;
      return { ...row, values };
    }),
  };
}

/**
 * Rows of date, values by name (named metrics), students, teachers and total; session duration in
 * hours (seconds / 3600, one decimal).
 */
export function seriesTable(series: AnalyticsSeries, granularity: AnalyticsGranularity, options: { hours?: boolean } = {}): ChartTable {
  const shown = shownNames(series);
  const unit = options.hours ? ' (hours)' : '';
  const scale = (n: number) => (options.hours ? oneDecimal(secondsToHours(n)) : n);
  const keys = [...shown, 'Students', 'Teachers', 'Total'];
  const rows = series.rows.map((row) => {
    const byName = valuesByShownName(row.values, shown);
    return [periodLabel(row.date, granularity), ...shown.map((n) => byName[n] ?? 0), scale(row.students), scale(row.teachers), scale(row.total)];
  });
  const totalsRaw = series.rows.reduce(
    (acc, row) => {
      const byName = valuesByShownName(row.values, shown);
      shown.forEach((n, i) => (acc[i] = (acc[i] ?? 0) + (byName[n] ?? 0)));
      acc[shown.length] = (acc[shown.length] ?? 0) + row.students;
      acc[shown.length + 1] = (acc[shown.length + 1] ?? 0) + row.teachers;
      acc[shown.length + 2] = (acc[shown.length + 2] ?? 0) + row.total;
      return acc;
    },
    new Array<number>(keys.length).fill(0),
  );
  const totals = totalsRaw.map((n, i) => (i >= shown.length ? scale(n) : n));
  return { columns: ['Date', ...shown, ...['Students', 'Teachers', 'Total'].map((c) => `${c}${unit}`)], rows, totals, keys };
}

export function booksTable(data: AnalyticsPeriodicCount, granularity: AnalyticsGranularity): ChartTable {
  return {
    columns: ['Date', 'Books created'],
    rows: data.rows.map((r) => [periodLabel(r.date, granularity), r.count]),
    totals: [data.rows.reduce((sum, r) => sum + r.count, 0)],
    keys: ['Books created'],
  };
}

/** True when a chart has nothing to draw: no rows, or only zeros. */
export function isEmpty(table: ChartTable): boolean {
  return table.rows.length === 0 || table.totals.every((n) => n === 0);
}
