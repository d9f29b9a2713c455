import { describe, expect, it } from 'vitest';
import type { AnalyticsSeries } from '@quire/core';
import { csvField } from '@quire/core';
import { toCsv } from './csv.js';
import { isEmpty, renameSeries, seriesTable } from './chart-table.js';
import { axisLabel, spansYears, timeRange } from './time-range.js';

describe('CSV (RFC 4180, opens cleanly in Excel)', () => {
  it('starts with a BOM, ends records with CRLF, quotes what needs it and doubles quotes', () => {
    expect(toCsv([['Date', 'Name'], ['2024-03-04', 'Smith, "Jo"'], ['x', 'two\nlines']])).toBe(
      '\uFEFFDate,Name\r\n2024-03-04,"Smith, ""Jo"""\r\nx,"two\nlines"\r\n',
    );
  });

  it('neutralises text that a spreadsheet would run as a formula, and leaves numbers alone', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-2')).toBe("'-2");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tcmd')).toBe("'\tcmd");
    expect(csvField(-2)).toBe('-2');
    expect(csvField(1.5)).toBe('1.5');
    expect(csvField(null)).toBe('');
  });

  it('quotes a semicolon and neutralises a formula after one (Excel in German, French or Dutch splits on it)', () => {
    expect(csvField('Ann;=1+1;')).toBe(`"Ann;'=1+1;"`);
    expect(csvField('a;b')).toBe('"a;b"');
    expect(csvField('x;\n@y')).toBe(`"x;\n'@y"`);
  });
});

const series = (rows: AnalyticsSeries['rows'], names: string[] = []): AnalyticsSeries => ({ metric: 'sessions-by-os', granularity: 'weekly', from: '20240101', to: '20240131', names, rows });

describe('a chart as a table', () => {
  it('carries the date, the values by name, students, teachers and total, with totals', () => {
    const table = seriesTable(series([
      { date: '2024-03-04', values: { Windows: 2, iOS: 1 }, students: 2, teachers: 1, total: 3 },
      { date: '2024-03-11', values: { iOS: 4 }, students: 4, teachers: 0, total: 4 },
    ], ['iOS', 'Windows']), 'weekly');
    expect(table.columns).toEqual(['Date', 'iOS', 'Windows', 'Students', 'Teachers', 'Total']);
    expect(table.rows).toEqual([['Week of 4 Mar 2024', 1, 2, 2, 1, 3], ['Week of 11 Mar 2024', 4, 0, 4, 0, 4]]);
    expect(table.totals).toEqual([5, 2, 6, 1, 7]);
  });

  it('shows session duration in hours (seconds / 3600) and sums names past eight as Other', () => {
    const names = Array.from({ length: 10 }, (_, i) => `d${i}.org`);
    const table = seriesTable(series([{ date: '2024-03-01', values: Object.fromEntries(names.map((n) => [n, 1])), students: 5400, teachers: 1800, total: 7200 }], names), 'monthly', { hours: true });
    expect(table.columns.slice(-4)).toEqual(['Other', 'Students (hours)', 'Teachers (hours)', 'Total (hours)']);
    expect(table.rows[0]).toEqual(['Mar 2024', 1, 1, 1, 1, 1, 1, 1, 3, 1.5, 0.5, 2]);
  });

  it('can name its series another way, summing names that become one', () => {
    const renamed = renameSeries(series([{ date: '2024-03-04', values: { google: 2, office365: 1, Google: 1 }, students: 4, teachers: 0, total: 4 }], ['google', 'office365', 'Google']),
      (name) => ({ google: 'Google', office365: 'Office 365' })[name] ?? name);
    expect(renamed.names).toEqual(['Google', 'Office 365']);
    expect(renamed.rows[0]?.values).toEqual({ Google: 3, 'Office 365': 1 });
  });

  it('is empty with no rows or only zeros', () => {
    expect(isEmpty(seriesTable(series([]), 'weekly'))).toBe(true);
    expect(isEmpty(seriesTable(series([{ date: '2024-03-04', values: {}, students: 0, teachers: 0, total: 0 }]), 'weekly'))).toBe(true);
  });
});

describe('time options', () => {
  it('reach back 30 days by day, or 18 months by week and month', () => {
    const now = new Date('2024-08-15T22:30:00Z');
    expect(timeRange('Last 30 days', now)).toMatchObject({ granularity: 'daily', period: 'd', from: '20240717', to: '20240815' });
    expect(timeRange('Weekly', now)).toMatchObject({ granularity: 'weekly', period: 'w', from: '20230201', to: '20240815' });
    expect(timeRange('Monthly', now)).toMatchObject({ granularity: 'monthly', period: 'm', from: '20230201', to: '20240815' });
  });
});

describe('axis labels', () => {
  it('name the year when the range spans years, so one label never stands for two dates', () => {
    const now = new Date('2024-08-15T12:00:00Z');
    expect(spansYears(timeRange('Weekly', now))).toBe(true);
    expect(spansYears(timeRange('Last 30 days', now))).toBe(false);
    expect(spansYears(timeRange('Last 30 days', new Date('2025-01-10T12:00:00Z')))).toBe(true);
    expect(axisLabel('2024-04-28', 'weekly', true)).toBe('28 Apr 2024');
    expect(axisLabel('2024-04-28', 'daily', true)).toBe('28 Apr 2024');
    expect(axisLabel('2024-04-28', 'daily')).toBe('28 Apr');
    expect(axisLabel('2024-04-01', 'monthly')).toBe('Apr 2024');
  });
});
