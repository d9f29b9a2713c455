import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { CopyBinaryField } from './copy-binary-field.js';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** What PostgreSQL writes for `COPY (SELECT bytea …) TO STDOUT (FORMAT binary)` over these values. */
function binaryCopy(values: (Buffer | null)[], extension = Buffer.alloc(0)): Buffer {
  const parts: Buffer[] = [SIGNATURE, int32(0), int32(extension.length), extension];
  for (const value of values) {
    parts.push(int16(1), int32(value ? value.length : -1));
    if (value) parts.push(value);
  }
  parts.push(int16(-1));
  return Buffer.concat(parts);
}
function int16(n: number) {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
}
function int32(n: number) {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
}

/** Feeds `bytes` in pieces of the given sizes (cycled), as a socket would. */
async function decode(bytes: Buffer, sizes: number[]): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    pieces.push(bytes.subarray(at, at + size));
    at += size;
  }
  const out = new CopyBinaryField();
  const [result] = await Promise.all([buffer(out), pipeline(Readable.from(pieces), out)]);
  return result;
}

describe('CopyBinaryField', () => {
  const values = [Buffer.from('id,name\r\n'), Buffer.from('é,"a\r\nb"\r\n'), Buffer.alloc(0), Buffer.from([0, 0xff, 0x0a, 0x2c, 0x00])];
  const expected = Buffer.concat(values);

  it('gives the values of every row, one after the other, whatever the size of the pieces they arrive in', async () => {
    const bytes = binaryCopy(values);
    for (const sizes of [[bytes.length], [1], [2, 3], [5, 1, 7], [13], [19, 2]]) {
      expect(await decode(bytes, sizes), `pieces ${sizes.join(',')}`).toEqual(expected);
    }
  });

  it('skips a header extension', async () => {
    expect(await decode(binaryCopy(values, Buffer.from('ext!')), [3])).toEqual(expected);
  });

  it('passes a large value through without gathering it', async () => {
    const big = Buffer.alloc(3 * 65_536 + 7, 0x61);
    const out = new CopyBinaryField();
    const sizes: number[] = [];
    out.on('data', (piece: Buffer) => sizes.push(piece.length));
    const bytes = binaryCopy([big]);
    await pipeline(Readable.from([bytes.subarray(0, 65_536), bytes.subarray(65_536, 131_072), bytes.subarray(131_072)]), out);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(big.length);
    // Never more than the piece it came in (the last piece here is 65,570 bytes: 65,568 of data and the trailer).
    expect(Math.max(...sizes)).toBeLessThanOrEqual(65_568);
    expect(sizes.length).toBeGreaterThanOrEqual(3);
  });

  it('refuses output that is not one non-NULL column, or that ends before its trailer', async () => {
    await expect(decode(Buffer.from('id\tname\nabc\tdef\nghi\tjkl\n'), [64])).rejects.toThrow(/Not COPY binary/);
    await expect(decode(binaryCopy([Buffer.from('a'), null]), [4])).rejects.toThrow(/NULL/);
    const two = Buffer.concat([SIGNATURE, int32(0), int32(0), int16(2)]);
    await expect(decode(two, [64])).rejects.toThrow(/one column/);
    const bytes = binaryCopy(values);
    await expect(decode(bytes.subarray(0, bytes.length - 2), [64])).rejects.toThrow(/ended early/);
    await expect(decode(bytes.subarray(0, bytes.length - 5), [7])).rejects.toThrow(/ended early/);
  });
});
