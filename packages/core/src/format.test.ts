import { describe, expect, it } from 'vitest';
import { abbreviateNumber, formatOrdinalDate, ordinal, parseYyyymmdd, secondsToHours, yyyymmdd } from './format.js';

describe('abbreviateNumber (k, M, G, T, P, E with 1 decimal)', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [12.34, '12.3'],
    [999, '999'],
    [999.96, '1.0k'],
    [1000, '1.0k'],
    [1500, '1.5k'],
    [1549, '1.5k'],
    [1550, '1.6k'],
    [999_949, '999.9k'],
    [999_950, '1.0M'],
    [2_500_000, '2.5M'],
    [3e9, '3.0G'],
    [4.25e12, '4.3T'],
    [5e15, '5.0P'],
    [1e18, '1.0E'],
    [1e21, '1000.0E'],
    [-1500, '-1.5k'],
    [Number.NaN, '0'],
    [Number.POSITIVE_INFINITY, '0'],
  ])('%d → %s', (value, expected) => {
    expect(abbreviateNumber(value)).toBe(expected);
  });
});

describe('ordinal', () => {
  it.each([
    [1, '1st'], [2, '2nd'], [3, '3rd'], [4, '4th'], [11, '11th'], [12, '12th'], [13, '13th'],
    [21, '21st'], [22, '22nd'], [23, '23rd'], [24, '24th'], [30, '30th'], [31, '31st'], [111, '111th'],
  ])('%i → %s', (day, expected) => {
    expect(ordinal(day)).toBe(expected);
  });
});

describe('formatOrdinalDate', () => {
  it.each([
    [new Date(2024, 2, 5), '5th March 2024'],
    [new Date(2024, 0, 1), '1st January 2024'],
    [new Date(2023, 11, 22), '22nd December 2023'],
    [new Date(2024, 1, 13, 23, 59), '13th February 2024'],
  ])('%s → %s', (date, expected) => {
    expect(formatOrdinalDate(date)).toBe(expected);
  });
  it('reads UTC when asked and accepts ISO strings', () => {
    expect(formatOrdinalDate('2024-03-31T12:00:00Z', { utc: true })).toBe('31st March 2024');
  });
  it('gives an empty string for an invalid date', () => {
    expect(formatOrdinalDate('not a date')).toBe('');
  });
});

it.each([
  [3600, 1],
  [5400, 1.5],
  [0, 0],
])('secondsToHours(%i) = %d', (seconds, hours) => {
  expect(secondsToHours(seconds)).toBe(hours);
});

describe('yyyymmdd', () => {
  it('formats local and UTC dates', () => {
    expect(yyyymmdd(new Date(2024, 2, 5))).toBe('20240305');
    expect(yyyymmdd(new Date(2023, 11, 31))).toBe('20231231');
    expect(yyyymmdd('2023-07-01T00:00:00Z', { utc: true })).toBe('20230701');
  });
  it('rejects an invalid date', () => {
    expect(() => yyyymmdd('nope')).toThrow(RangeError);
  });
  it.each([
    ['20240305', '2024-03-05T00:00:00.000Z'],
    ['20240229', '2024-02-29T00:00:00.000Z'],
    ['20230229', null],
    ['20241301', null],
    ['2024035', null],
    ['abcdefgh', null],
  ])('parseYyyymmdd(%s) → %s', (text, iso) => {
    expect(parseYyyymmdd(text)?.toISOString() ?? null).toBe(iso);
  });
});
