import { Transform, type TransformCallback } from 'node:stream';

/** COPY's text format writes these after a backslash; everything else passes as it is (PostgreSQL's CopyAttributeOutText). */
const UNESCAPED: Record<number, number> = {
  0x5c: 0x5c, // \\ -> \
  0x62: 0x08, // \b
  0x66: 0x0c, // \f
  0x6e: 0x0a, // \n
  0x72: 0x0d, // \r
  0x74: 0x09, // \t
  0x76: 0x0b, // \v
};
const BACKSLASH = 0x5c;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Turns the output of `COPY (SELECT line …) TO STDOUT` (text format, one column) back into the lines themselves,
 * each ended with CRLF: a backslash sequence becomes its character, and COPY's own row end (a bare LF: data LFs
 * are always escaped) becomes CRLF. Byte-wise, so a multi-byte character or an escape split across chunks is
 * safe. `head` is written first (the BOM and the header record).
 */
export class CopyTextToCsv extends Transform {
  #escaped = false;

  constructor(head: string) {
    super();
    this.push(Buffer.from(head, 'utf8'));
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    // At most one extra byte per row end; escapes only shrink.
    const out = Buffer.allocUnsafe(chunk.length * 2);
    let o = 0;
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (this.#escaped) {
        const value = UNESCAPED[byte];
        if (value === undefined) return done(new Error(`Unexpected escape \\${String.fromCharCode(byte)} in COPY output`));
        out[o++] = value;
        this.#escaped = false;
        start = i + 1;
      } else if (byte === BACKSLASH || byte === LF) {
        o += chunk.copy(out, o, start, i);
        if (byte === BACKSLASH) this.#escaped = true;
        else {
          out[o++] = CR;
          out[o++] = LF;
        }
        start = i + 1;
      }
    }
    if (!this.#escaped) o += chunk.copy(out, o, start, chunk.length);
    done(null, out.subarray(0, o));
  }

  override _flush(done: TransformCallback): void {
    done(this.#escaped ? new Error('COPY output ended inside an escape') : null);
  }
}
