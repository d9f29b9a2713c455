import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ROSTER_MAX_UPLOAD_BYTES } from '@quire/core';
import { AppError, appError } from '../../errors.js';
import type { RosterUpload } from './roster.service.js';

/** The content types a browser or a script sends a zip with. */
const ZIP_TYPES = ['application/zip', 'application/x-zip-compressed', 'application/octet-stream'];

/**
 * The zip is written to a temporary file as it arrives, never held in memory (a zip is read from its end, so it
 * has to be somewhere), counted against ROSTER_MAX_UPLOAD_BYTES, and removed when the request ends whatever happens.
 */
export function registerZipParser(app: FastifyInstance): void {
  app.addContentTypeParser(ZIP_TYPES, (request, payload, done) => {
    const path = join(tmpdir(), `quire-roster-${randomUUID()}.zip`);
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, next) {
        bytes += chunk.length;
        next(bytes > ROSTER_MAX_UPLOAD_BYTES ? appError('roster_upload_too_large') : null, chunk);
      },
    });
    (request as FastifyRequest & { rosterUploadPath?: string }).rosterUploadPath = path;
    pipeline(payload, counter, createWriteStream(path)).then(
      () => done(null, { path, bytes } satisfies RosterUpload),
      (error: unknown) => {
        void rm(path, { force: true });
        done(error instanceof AppError ? error : appError('bad_request', { message: 'The upload was interrupted' }));
      },
    );
  });
  // An upload refused after it was written (validation, access) leaves no file behind.
  app.addHook('onResponse', async (request) => {
    const path = (request as FastifyRequest & { rosterUploadPath?: string }).rosterUploadPath;
    if (path) await rm(path, { force: true });
  });
}
