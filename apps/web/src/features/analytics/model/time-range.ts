import { CHART_HISTORY_MONTHS, yyyymmdd, type AnalyticsGranularity, type AnalyticsPeriod } from '@quire/core';

/** The chart time options of spec §2, in the order shown; Weekly is the default. */
export const TIME_OPTIONS = ['Last 30 days', 'Weekly', 'Monthly'] as const;
export type TimeOption = (typeof TIME_OPTIONS)[number];
export const DEFAULT_TIME_OPTION: TimeOption = 'Weekly';

export interface TimeRange {
  option: TimeOption;
  granularity: AnalyticsGranularity;
  period: AnalyticsPeriod;
  /** YYYYMMDD, inclusive, UTC days (the days the rollups use). */
  from: string;
  to: string;
  /** How the tiles name the range, e.g. 'last 30 days'. */
  description: string;
}

const DAY = 86_400_000;

/** The range of a time option on a given day: the last 30 days by day, or 18 months by week or month. */
export function timeRange(option: TimeOption, now: Date = new Date()): TimeRange {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const to = yyyymmdd(today, { utc: true });
  if (option === 'Last 30 days') {
    return { option, granularity: 'daily', period: 'd', from: yyyymmdd(new Date(today.getTime() - 29 * DAY), { utc: true }), to, description: 'last 30 days' };
  }
  const start = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - CHART_HISTORY_MONTHS, 1));
  const from = yyyymmdd(start, { utc: true });
  return option === 'Weekly'
    ? { option, granularity: 'weekly', period: 'w', from, to, description: `last ${CHART_HISTORY_MONTHS} months` }
    : { option, granularity: 'monthly', period: 'm', from, to, description: `last ${CHART_HISTORY_MONTHS} months` };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Whether a range covers days of more than one calendar year (18 months always does; 30 days may). */
export function spansYears(range: Pick<TimeRange, 'from' | 'to'>): boolean {
  return range.from.slice(0, 4) !== range.to.slice(0, 4);
}

/**
 * A period's first day ('2024-03-04') as an axis label: '4 Mar' by day and week, 'Mar 2024' by month. Over a range that
 * spans years the day and week labels carry the year too ('4 Mar 2024'): without it one label stood for two dates.
 */
export function axisLabel(date: string, granularity: AnalyticsGranularity, withYear = false): string {
  const [y, m, d] = date.split('-').map(Number);
  const month = MONTHS[(m ?? 1) - 1] ?? '';
  return granularity === 'monthly' || withYear ? `${granularity === 'monthly' ? '' : `${d} `}${month} ${y}` : `${d} ${month}`;
}

/** The table's name of a period: 'Tue 5 Mar 2024', 'Week of 4 Mar 2024', 'March 2024'. */
export function periodLabel(date: string, granularity: AnalyticsGranularity): string {
  const [y, m, d] = date.split('-').map(Number);
  const month = MONTHS[(m ?? 1) - 1] ?? '';
  if (granularity === 'monthly') return `${month} ${y}`;
  if (granularity === 'weekly') return `Week of ${d} ${month} ${y}`;
  return `${d} ${month} ${y}`;
}
