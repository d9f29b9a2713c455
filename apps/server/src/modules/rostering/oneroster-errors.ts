import type { RosterError } from '@quire/core';
import { appError, type AppError } from '../../errors.js';

/** A problem that makes the whole upload unreadable: nothing is previewed or changed. */
export class RosterFileError extends Error {
  readonly where: RosterError;
  constructor(where: RosterError) {
    super(describeRosterError(where));
    this.where = where;
  }
}

/** "users.csv, line 12, column email: reason". */
function describeRosterError(error: RosterError): string {
  const place = [error.file, error.line !== null ? `line ${error.line}` : null, error.column !== null ? `column ${error.column}` : null].filter(Boolean).join(', ');
  return `${place}: ${error.reason}`;
}

/** The 400 answered for an unreadable upload, naming the file, line, column and reason. */
export function fileRefusal(error: RosterFileError): AppError {
  return appError('roster_file_invalid', { message: error.message, details: { error: error.where } });
}
