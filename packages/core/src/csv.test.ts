import { describe, expect, it } from 'vitest';
import { csvField, csvRow, toCsv } from './csv.js';

describe('csvField', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['=1+1', "'=1+1"],
    ['\tTab', "'\tTab"],
    ['\rCR', `"'\rCR"`],
    [' padded ', '" padded "'],
    // Excel in a semicolon locale splits here, so each part is neutralised and the cell quoted.
    ['Ann;=1+1;', `"Ann;'=1+1;"`],
    ['semi;colon', '"semi;colon"'],
    ['x;\n@y', `"x;\n'@y"`],
    ['Ann;"=1+1"', `"Ann;'""=1+1"""`],
    ['a - b', 'a - b'],
  ])('%j → %j', (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });

  it('leaves numbers alone and writes nothing for null', () => {
    expect(csvField(-2)).toBe('-2');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField(null)).toBe('');
  });

  it('makes records and files with CRLF and a BOM', () => {
    expect(csvRow(['a', 1, null])).toBe('a,1,\r\n');
    expect(toCsv([['h'], ['v']])).toBe('\uFEFFh\r\nv\r\n');
  });
});
