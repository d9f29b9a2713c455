import { Transform, type TransformCallback } from 'node:stream';

/** PGCOPY\n\377\r\n\0: the first 11 bytes of COPY's binary format. */
const SIGNATURE = Buffer.from([0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00]);
/** Signature, flags (int32), header extension length (int32). */
const HEADER_LENGTH = SIGNATURE.length + 8;

type State =
  | { at: 'header' }
  | { at: 'extension'; left: number }
  | { at: 'tuple' }
  | { at: 'length' }
  | { at: 'data'; left: number }
  | { at: 'trailer' };

/**
 * Turns the output of `COPY (SELECT one_bytea_column …) TO STDOUT (FORMAT binary)` into the column's bytes, row
 * after row, with nothing between them: the file a table of chunks holds, streamed. The bytes of each value pass
 * through as slices of the pieces COPY delivers (no hex, no string, no whole-row buffer), so memory stays at a
 * socket read whatever the size of a row. A header, a field count or a length split across pieces is gathered
 * first (a few bytes). Refuses anything but one non-NULL column per row.
 */
export class CopyBinaryField extends Transform {
  #state: State = { at: 'header' };
  /** The few bytes of a header, field count or length that arrived split across pieces. */
  #pending = Buffer.alloc(0);

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let piece = this.#pending.length ? Buffer.concat([this.#pending, chunk]) : chunk;
    this.#pending = Buffer.alloc(0);
    try {
      while (piece.length) {
        const state = this.#state;
        if (state.at === 'data') {
          const n = Math.min(state.left, piece.length);
          this.push(piece.subarray(0, n));
          piece = piece.subarray(n);
          this.#state = state.left === n ? { at: 'tuple' } : { at: 'data', left: state.left - n };
          continue;
        }
        if (state.at === 'extension') {
          const n = Math.min(state.left, piece.length);
          piece = piece.subarray(n);
          this.#state = state.left === n ? { at: 'tuple' } : { at: 'extension', left: state.left - n };
          continue;
        }
        const need = state.at === 'header' ? HEADER_LENGTH : state.at === 'length' ? 4 : 2;
        if (state.at === 'trailer') throw new Error('Data after the end of COPY binary output');
        if (piece.length < need) {
          this.#pending = Buffer.from(piece);
          break;
        }
        if (state.at === 'header') {
          if (!piece.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error('Not COPY binary output');
          const extension = piece.readUInt32BE(SIGNATURE.length + 4);
          this.#state = extension ? { at: 'extension', left: extension } : { at: 'tuple' };
        } else if (state.at === 'tuple') {
          const fields = piece.readInt16BE(0);
          if (fields === -1) this.#state = { at: 'trailer' };
          else if (fields === 1) this.#state = { at: 'length' };
          else throw new Error(`Expected one column in COPY binary output, got ${fields}`);
        } else {
          const length = piece.readInt32BE(0);
          if (length < 0) throw new Error('Unexpected NULL in COPY binary output');
          this.#state = length ? { at: 'data', left: length } : { at: 'tuple' };
        }
        piece = piece.subarray(need);
      }
    } catch (error) {
      return done(error as Error);
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    done(this.#state.at === 'trailer' && !this.#pending.length ? null : new Error('COPY binary output ended early'));
  }
}
