import { SECONDS_PER_HOUR } from './constants.js';

const SUFFIXES = ['', 'k', 'M', 'G', 'T', 'P', 'E'] as const;

/**
 * Stat numbers (§2): below 1000 they show as they are (at most one decimal); from 1000 they are divided
 * by the largest power of 1000 that fits and shown with exactly one decimal and k, M, G, T, P or E:
 * 1000 → '1.0k', 1500 → '1.5k', 999 950 → '1.0M' (rounding carries into the next unit).
 * Past E the number stays in E ('1000.0E'). Non-finite input shows as '0'.
 */
export function abbreviateNumber(value: number): string {
  if (!Number.isFinite(value)) return '0';
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  let tier = 0;
  while (tier < SUFFIXES.length - 1 && abs >= 1000 ** (tier + 1)) tier += 1;
  if (tier === 0) {
    const rounded = Math.round(abs * 10) / 10;
    if (rounded < 1000) return `${sign}${rounded}`;
    tier = 1;
  }
  let scaled = Math.round((abs / 1000 ** tier) * 10) / 10;
  if (scaled >= 1000 && tier < SUFFIXES.length - 1) {
    tier += 1;
    scaled = Math.round((abs / 1000 ** tier) * 10) / 10;
  }
  return `${sign}${scaled.toFixed(1)}${SUFFIXES[tier]}`;
}

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st, 22nd, 23rd … 31st. @internal */
export function ordinal(day: number): string {
  const mod100 = day % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${day}th`;
  switch (day % 10) {
    case 1:
      return `${day}st`;
    case 2:
      return `${day}nd`;
    case 3:
      return `${day}rd`;
    default:
      return `${day}th`;
  }
}

const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
] as const;

export interface DateFormatOptions {
  /** Read the calendar date in UTC instead of the local time zone (servers, CSV files). */
  utc?: boolean;
}

function toDate(value: Date | string | number): Date {
  return value instanceof Date ? value : new Date(value);
}

/** '5th March 2024' (the Removed date of inactive teachers). '' for an invalid date. */
export function formatOrdinalDate(value: Date | string | number, options: DateFormatOptions = {}): string {
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return '';
  const day = options.utc ? d.getUTCDate() : d.getDate();
  const month = options.utc ? d.getUTCMonth() : d.getMonth();
  const year = options.utc ? d.getUTCFullYear() : d.getFullYear();
  return `${ordinal(day)} ${MONTHS[month]} ${year}`;
}

/** Session duration: seconds to hours. */
export function secondsToHours(seconds: number): number {
  return seconds / SECONDS_PER_HOUR;
}

/** The analytics query date form, e.g. '20240305'. */
export function yyyymmdd(value: Date | string | number, options: DateFormatOptions = {}): string {
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) throw new RangeError('yyyymmdd: invalid date');
  const year = options.utc ? d.getUTCFullYear() : d.getFullYear();
  const month = (options.utc ? d.getUTCMonth() : d.getMonth()) + 1;
  const day = options.utc ? d.getUTCDate() : d.getDate();
  return `${String(year).padStart(4, '0')}${String(month).padStart(2, '0')}${String(day).padStart(2, '0')}`;
}

/** '20240305' to midnight UTC of that day; null unless it is a real calendar date. */
export function parseYyyymmdd(text: string): Date | null {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day ? d : null;
}

/** A count as people read it, with its digits grouped: 1234567 → '1,234,567', -2000 → '-2,000'. */
export function formatCount(value: number): string {
  return Number.isFinite(value) ? Math.trunc(value).toLocaleString('en-US') : '0';
}
