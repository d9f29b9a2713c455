import { isUtf8 } from 'node:buffer';
import { appError } from '../../errors.js';
import type { TeacherSeek, TeacherSort } from './teachers-list.repository.js';

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * The opaque cursor of a row (`nextCursor`, `previousCursor`): the sort and direction it belongs to, then the
 * bytes of the row's sort key and e-mail, base64url, and in a district's list the member id (`district`). A later
 * page starts after (or before) that row with an index seek, however deep it is.
 */
export function encodeCursor(sort: TeacherSort, seek: TeacherSeek, district = false): string {
  const parts = [sort.key, sort.dir, Buffer.from(seek.key).toString('base64url'), Buffer.from(seek.email).toString('base64url')];
  if (district) parts.push(Buffer.from(seek.id ?? '').toString('base64url'));
  return parts.join('.');
}

/**
 * The seek a cursor names, or 400 `invalid_cursor` when it is malformed or was made for another sort, or for an
 * organisation's list when a district's is read (or the other way round).
 */
export function decodeCursor(cursor: string, sort: TeacherSort, district = false): TeacherSeek {
  const parts = cursor.split('.');
  const [key, dir, sortKey, email, id] = parts;
  if (
    parts.length !== (district ? 5 : 4) ||
    key !== sort.key ||
    dir !== sort.dir ||
    !BASE64URL.test(sortKey!) ||
    !BASE64URL.test(email!) ||
    !email ||
    (district && (!id || !BASE64URL.test(id)))
  ) {
    throw appError('invalid_cursor');
  }
  const seek: TeacherSeek = { key: Buffer.from(sortKey!, 'base64url'), email: Buffer.from(email, 'base64url') };
  if (district) {
    const bytes = Buffer.from(id!, 'base64url');
    if (bytes.includes(0) || !isUtf8(bytes)) throw appError('invalid_cursor');
    seek.id = bytes.toString('utf8');
  }
  // The database reads them as UTF-8 text: anything else is refused here, not there.
  for (const bytes of [seek.key, seek.email]) {
    if (bytes.includes(0) || !isUtf8(bytes)) throw appError('invalid_cursor');
  }
  return seek;
}

/** True for a database error about a value (SQLSTATE class 22): a forged cursor whose key is not of its sort's type. */
export function isDataException(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('22');
}
