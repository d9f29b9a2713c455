import { Transform, type Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { RosterFileError } from './oneroster-errors.js';

/**
 * Reading a OneRoster zip without trusting it: the central directory is read first (yauzl, from the file on disk,
 * never the whole zip in memory); entry names that climb out of the archive, absolute paths, encrypted entries and
 * entries that would inflate past a size or ratio limit are refused before a byte of them is inflated, and the bytes
 * that do come out are counted against the same limits (an entry's declared size may lie).
 */

/** The largest a file we read may inflate to. A 50,000-person district's users.csv is about 10 MB. */
const MAX_ENTRY_BYTES = 256 * 1024 * 1024;
/** Entries may inflate to this size whatever their ratio; beyond it, no more than MAX_RATIO times their compressed size. */
const RATIO_CHECKED_FROM_BYTES = 1024 * 1024;
/** The inflated-to-compressed ratio beyond which an entry is taken for a zip bomb. */
const MAX_RATIO = 200;
/** Entries in one archive (OneRoster has 13 files; folders and a few extras are fine). */
const MAX_ENTRIES = 100;

export interface ZipEntries {
  /** Files at the archive's root (or under one folder every file shares), by lower-case name. */
  files: Map<string, Entry>;
  open(entry: Entry): Promise<Readable>;
  close(): void;
}

const traversal = (name: string) =>
  new RosterFileError({ file: name, line: null, column: null, reason: 'the zip names a file outside the archive (a path with .. or an absolute path); it was refused' });

function unsafeName(name: string): boolean {
  const parts = name.replace(/\\/g, '/').split('/');
  return name.startsWith('/') || name.startsWith('\\') || /^[a-zA-Z]:/.test(name) || parts.includes('..');
}

/** Opens the zip at `path` and lists its entries, refusing unsafe ones. */
export async function openRosterZip(path: string): Promise<ZipEntries> {
  const zip = await new Promise<ZipFile>((resolve, reject) => {
    // decodeStrings off: names are checked here, with a message a district can act on.
    yauzl.open(path, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true }, (error, file) => {
      if (error || !file) reject(new RosterFileError({ file: 'the upload', line: null, column: null, reason: `it is not a zip file (${error?.message ?? 'unreadable'})` }));
      else resolve(file);
    });
  });
  try {
    const entries = await listEntries(zip);
    const names = [...entries.keys()];
    // A zip made by compressing a folder puts every file under that folder: read them from there.
    const folders = new Set(names.map((n) => (n.includes('/') ? n.slice(0, n.indexOf('/') + 1) : '')));
    const prefix = folders.size === 1 ? [...folders][0]! : '';
    const files = new Map<string, Entry>();
    for (const [name, entry] of entries) {
      const rest = name.slice(prefix.length);
      if (rest === '' || rest.includes('/')) continue;
      files.set(rest.toLowerCase(), entry);
    }
    return {
      files,
      open: (entry) => openEntry(zip, entry),
      close: () => zip.close(),
    };
  } catch (error) {
    zip.close();
    throw error;
  }
}

function listEntries(zip: ZipFile): Promise<Map<string, Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, Entry>();
    let count = 0;
    zip.on('error', (error: Error) => reject(new RosterFileError({ file: 'the upload', line: null, column: null, reason: `the zip is damaged (${error.message})` })));
    zip.on('entry', (entry: Entry) => {
      count += 1;
      const raw = entry.fileName as unknown as Buffer | string;
      const name = Buffer.isBuffer(raw) ? raw.toString('utf8') : raw;
      if (unsafeName(name)) return reject(traversal(name));
      if (count > MAX_ENTRIES) return reject(new RosterFileError({ file: 'the upload', line: null, column: null, reason: `the zip holds more than ${MAX_ENTRIES} files` }));
      if (!name.endsWith('/') && !name.startsWith('__MACOSX/')) entries.set(name, entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.readEntry();
  });
}

function entryName(entry: Entry): string {
  const raw = entry.fileName as unknown as Buffer | string;
  const name = Buffer.isBuffer(raw) ? raw.toString('utf8') : raw;
  return name.slice(name.lastIndexOf('/') + 1);
}

function bomb(name: string) {
  return new RosterFileError({ file: name, line: null, column: null, reason: `it inflates beyond the limits (more than ${MAX_ENTRY_BYTES / 1024 / 1024} MB, or more than ${MAX_RATIO} times its compressed size): refused as a possible zip bomb` });
}

/** The entry's bytes, inflated as they are read; refused when it is encrypted or would grow past the limits. */
async function openEntry(zip: ZipFile, entry: Entry): Promise<Readable> {
  const name = entryName(entry);
  if (entry.isEncrypted()) throw new RosterFileError({ file: name, line: null, column: null, reason: 'the file is encrypted' });
  // Any entry may inflate to 1 MB; beyond that, to MAX_RATIO times its compressed size; never beyond MAX_ENTRY_BYTES.
  const limit = Math.min(MAX_ENTRY_BYTES, Math.max(RATIO_CHECKED_FROM_BYTES, entry.compressedSize * MAX_RATIO));
  if (entry.uncompressedSize > limit) throw bomb(name);
  const stream = await new Promise<Readable>((resolve, reject) => {
    zip.openReadStream(entry, (error, s) => (error || !s ? reject(new RosterFileError({ file: name, line: null, column: null, reason: `the zip is damaged (${error?.message ?? 'unreadable'})` })) : resolve(s)));
  });
  let seen = 0;
  // The declared size may lie (yauzl then fails the stream too): stop at the limit either way.
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > limit) return done(bomb(name));
      done(null, chunk);
    },
  });
  stream.on('error', (error: Error) => counter.destroy(error instanceof RosterFileError ? error : new RosterFileError({ file: name, line: null, column: null, reason: `the zip is damaged (${error.message})` })));
  return stream.pipe(counter);
}
