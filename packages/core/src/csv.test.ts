import fc from 'fast-check';
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

  it('writes any text as the two rules do, one after the other (its shortcut for plain text changes nothing)', () => {
    const rules = (text: string) => {
      const safe = text.replace(/(^|[;\r\n])(?="*[=+\-@\t\r])/g, "$1'");
      return /[;,"\r\n]|^\s|\s$/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
    };
    const unit = fc.oneof(fc.constantFrom(';', ',', '"', '\r', '\n', '\t', ' ', '\u00a0', '\u3000', '=', '+', '-', '@', "'", 'a', 'Z', '1', 'é', '日', '🎓'), fc.string({ maxLength: 1, unit: 'grapheme' }));
    fc.assert(fc.property(fc.string({ unit, maxLength: 12 }), (text) => {
      expect(csvField(text)).toBe(rules(text));
    }), { numRuns: 2000 });
  });

  it('makes records and files with CRLF and a BOM', () => {
    expect(csvRow(['a', 1, null])).toBe('a,1,\r\n');
    expect(toCsv([['h'], ['v']])).toBe('\uFEFFh\r\nv\r\n');
  });
});
