import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { appError } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import { findOrgAccess } from '../access/org-access.js';
import { findAvatarSubject, findFeaturedCover, findOrganisationBook, organisationsOfUser } from './assets.repository.js';
import { storedAvatarImage } from './avatar-image.js';
import { ensureFeaturedBooks } from './featured-books.js';
import { etagOf, initialsOf, renderCover, renderInitials, scaleImage } from './images.js';

export interface ImageAnswer {
  body: Buffer;
  contentType: string;
  etag: string;
}

const noAvatar = () => appError('avatar_not_found');
const noCover = () => appError('cover_not_found');

/** Scaled images of the featured books, by book, width and version: nine books, a few widths. */
const coverCache = new Map<string, ImageAnswer>();

async function canSeeAnyOf(db: Kysely<DB>, actor: Actor, organisationIds: string[]): Promise<boolean> {
  for (const organisationId of organisationIds) {
    if ((await findOrgAccess(db, actor, organisationId))?.level) return true;
  }
  return false;
}

/**
 * GET {assets}/{userId}/avatar: the person's stored picture (scaled once, then stored: avatar-image.ts), else a
 * generated initials image, for the actor themselves or a person of an organisation the actor may open;
 * anyone else is a 404 so ids cannot be probed. A stored remote URL is never redirected to or fetched: the
 * server serves only bytes it holds (an open redirect and a server-side request forgery otherwise).
 */
export async function getAvatar(db: Kysely<DB>, actor: Actor, id: string): Promise<ImageAnswer> {
  const subject = await findAvatarSubject(db, id);
  if (!subject) throw noAvatar();
  if (subject.userId !== actor.userId) {
    const organisations = subject.userId ? await organisationsOfUser(db, subject.userId) : [];
    if (subject.memberOrganisationId) organisations.push(subject.memberOrganisationId);
    if (!(await canSeeAnyOf(db, actor, organisations))) throw noAvatar();
  }
  const stored = subject.userId ? await storedAvatarImage(db, subject.userId, subject.image) : null;
  if (stored) return stored;
  const body = await renderInitials(initialsOf(subject.name, subject.email), subject.userId ?? id);
  return { body, contentType: 'image/png', etag: etagOf(body) };
}

/**
 * GET {assets}/{userId}/{bookId}?width=: a book's cover scaled by the server. Featured example books are
 * open to every signed-in user; a book of an organisation's library only to people who may open that
 * organisation (404 otherwise, so ids cannot be probed).
 */
export async function getCover(db: Kysely<DB>, actor: Actor, userId: string, bookId: string, width: number): Promise<ImageAnswer> {
  await ensureFeaturedBooks(db);
  const featured = await findFeaturedCover(db, userId, bookId);
  if (featured?.cover) {
    const key = `${bookId}:${width}:${new Date(featured.updated_at).getTime()}`;
    const cached = coverCache.get(key);
    if (cached) return cached;
    const scaled = await scaleImage(Buffer.from(featured.cover), width);
    const answer = { ...scaled, etag: etagOf(scaled.body) };
    if (coverCache.size > 200) coverCache.clear();
    coverCache.set(key, answer);
    return answer;
  }
  const book = await findOrganisationBook(db, userId, bookId);
  if (!book || !(await findOrgAccess(db, actor, book.organisation_id))?.level) throw noCover();
  const scaled = await scaleImage(await renderCover(book.title, book.shape as 'landscape' | 'square' | 'portrait'), width);
  return { ...scaled, etag: etagOf(scaled.body) };
}
