import { Transform, type Readable } from 'node:stream';
import { parse, CsvError } from 'csv-parse';
import { RosterFileError } from './oneroster-errors.js';

/**
 * One CSV file of the zip, record by record, as OneRoster defines CSV (RFC 4180, UTF-8, a header line of the
 * standard's column names). Read as a stream: a file is never held whole.
 *
 * - The bytes must be UTF-8: anything else is refused with the line it was found on (TextDecoder, fatal).
 * - A byte order mark (spreadsheet programs write one) is dropped.
 * - Line breaks may be CRLF, LF or CR, even mixed in one file (an export edited by hand): each ends a record.
 * - A record longer than MAX_RECORD_CHARS (a 10 MB field, an unclosed quote running to the end) is refused.
 */

/** The longest record read, in characters. The longest OneRoster row of a real export is well under 4 KB. */
const MAX_RECORD_CHARS = 64 * 1024;

export interface CsvRecord {
  /** The record's first line in the file (the header is line 1). */
  line: number;
  /** Values by column name. */
  values: Record<string, string>;
}

/** Decodes UTF-8 as it streams, refusing bytes that are not UTF-8; counts lines for the message. */
function utf8Decoder(file: string): Transform {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let line = 1;
  const count = (text: string) => {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) line += 1;
  };
  const refuse = (chunk?: Buffer) => {
    // The line of the first byte that is not UTF-8: the chunk decoded leniently up to the replacement character.
    let at = line;
    if (chunk) {
      const lenient = new TextDecoder('utf-8').decode(chunk);
      const bad = lenient.indexOf('\uFFFD');
      for (let i = lenient.indexOf('\n'); i !== -1 && (bad === -1 || i < bad); i = lenient.indexOf('\n', i + 1)) at += 1;
    }
    return new RosterFileError({ file, line: at, column: null, reason: 'the file is not UTF-8 text (save or export it as UTF-8)' });
  };
  return new Transform({
    readableObjectMode: false,
    transform(chunk: Buffer, _encoding, done) {
      let text: string;
      try {
        text = decoder.decode(chunk, { stream: true });
      } catch {
        return done(refuse(chunk));
      }
      count(text);
      done(null, text);
    },
    flush(done) {
      try {
        const rest = decoder.decode();
        count(rest);
        done(null, rest);
      } catch {
        done(refuse());
      }
    },
  });
}

export interface HeaderRule {
  /** Columns the file must have. */
  required: readonly string[];
  /** Every column OneRoster defines for the file (either version); `metadata.*` extension columns are allowed too. */
  known: readonly string[];
}

/** Checks the header line: the standard's names, no unknown column, none twice, the required ones present. */
function checkHeader(file: string, header: string[], rule: HeaderRule): void {
  const known = new Set(rule.known);
  const seen = new Set<string>();
  for (const name of header) {
    if (!known.has(name) && !name.startsWith('metadata.')) {
      throw new RosterFileError({ file, line: 1, column: name, reason: `the header is not OneRoster: "${name}" is not a column of ${file}` });
    }
    if (seen.has(name)) throw new RosterFileError({ file, line: 1, column: name, reason: `the header names the column "${name}" twice` });
    seen.add(name);
  }
  const missing = rule.required.filter((name) => !seen.has(name));
  if (missing.length) {
    throw new RosterFileError({ file, line: 1, column: missing[0]!, reason: `the header is not OneRoster: ${file} must have the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}` });
  }
}

/**
 * The parser's records in the batches it has ready, waiting only when it has none: a file of 50,000 rows then costs a
 * few hundred awaits instead of one (and a promise) per row. A failure is thrown after the records read before it.
 */
async function* inBatches<T>(stream: Readable): AsyncGenerator<T[]> {
  let ready: T[] = [];
  let ended = false;
  let failure: { error: unknown } | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  stream.on('data', (item: T) => {
    ready.push(item);
    // Backpressure: the parser stops reading the zip while a batch waits to be taken.
    if (ready.length >= 1000) stream.pause();
    notify();
  });
  stream.on('end', () => { ended = true; notify(); });
  stream.on('error', (error) => { failure = { error }; notify(); });
  try {
    for (;;) {
      if (ready.length) {
        const batch = ready;
        ready = [];
        yield batch;
        stream.resume();
        continue;
      }
      if (failure) throw (failure as { error: unknown }).error;
      if (ended) return;
      await new Promise<void>((resolve) => { wake = resolve; });
    }
  } finally {
    if (!ended) stream.destroy();
  }
}

/** The file's records in batches, after its header is checked; a fatal problem is thrown as a RosterFileError. */
export async function* readCsv(file: string, bytes: Readable, rule: HeaderRule): AsyncGenerator<CsvRecord[]> {
  const parser = parse({
    bom: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    max_record_size: MAX_RECORD_CHARS,
    skip_empty_lines: true,
    info: true,
  });
  const decoded = bytes.pipe(utf8Decoder(file));
  bytes.on('error', (error) => decoded.destroy(error));
  decoded.on('error', (error) => parser.destroy(error));
  decoded.pipe(parser);
  let header: string[] | null = null;
  try {
    for await (const items of inBatches<{ record: string[]; info: { lines: number } }>(parser)) {
      const batch: CsvRecord[] = [];
      for (const item of items) {
        if (!header) {
          header = item.record.map((name) => name.trim());
          checkHeader(file, header, rule);
          continue;
        }
        const values: Record<string, string> = {};
        for (let i = 0; i < header.length; i += 1) values[header[i]!] = (item.record[i] ?? '').trim();
        batch.push({ line: item.info.lines, values });
      }
      if (batch.length) yield batch;
    }
  } catch (error) {
    bytes.destroy();
    if (error instanceof RosterFileError) throw error;
    if (error instanceof CsvError) throw csvRefusal(file, error);
    throw error;
  }
  if (!header) throw new RosterFileError({ file, line: 1, column: null, reason: 'the file is empty: it has no header line' });
}

function csvRefusal(file: string, error: CsvError): RosterFileError {
  const lines = (error as { lines?: unknown }).lines;
  const line = typeof lines === 'number' ? lines : Number(/\bline (\d+)/.exec(error.message)?.[1]) || null;
  const reasons: Record<string, string> = {
    CSV_MAX_RECORD_SIZE: `a record is longer than ${MAX_RECORD_CHARS / 1024} KB (a field that large is not OneRoster data, or a quote is not closed)`,
    CSV_RECORD_INCONSISTENT_FIELDS_LENGTH: 'the line does not have as many values as the header has columns',
    CSV_QUOTE_NOT_CLOSED: 'a quoted value is not closed',
    CSV_INVALID_CLOSING_QUOTE: 'a quote inside a value is not doubled',
    CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: 'text follows a closing quote',
  };
  return new RosterFileError({ file, line, column: null, reason: reasons[error.code] ?? `the file is not valid CSV (${error.message})` });
}
