import { createHash } from 'node:crypto';
import { INPUT_LIMITS } from '@quire/core';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { findAvatarImage, saveAvatarImage } from './avatar-images.repository.js';
import { etagOf, scaleImage } from './images.js';

/** Raster images only: an SVG could carry script. Anything else stored (a remote URL) is never followed. */
const DATA_IMAGE = /^data:image\/(?:png|jpeg|gif|webp);base64,([A-Za-z0-9+/=\s]+)$/;
const AVATAR_WIDTH = 128;

export interface StoredImage {
  body: Buffer;
  contentType: string;
  etag: string;
}

/**
 * A user's picture as served, decoded and scaled once: the result is stored with the hash of the picture it came
 * from (avatar_images) and served from there until the picture changes. Null when there is no raster data: URL,
 * when it has more than INPUT_LIMITS.avatarMaxPixels (one saved before that limit; refused from its header,
 * never decoded) or when it cannot be decoded: the caller serves initials.
 */
export async function storedAvatarImage(db: Kysely<DB>, userId: string, image: string | null): Promise<StoredImage | null> {
  const data = DATA_IMAGE.exec(image?.trim() ?? '');
  if (!image || !data) return null;
  const sourceHash = createHash('sha256').update(image).digest();
  const stored = await findAvatarImage(db, userId, sourceHash);
  if (stored) return { body: Buffer.from(stored.body), contentType: stored.content_type, etag: stored.etag };
  let scaled: { body: Buffer; contentType: string };
  try {
    scaled = await scaleImage(Buffer.from(data[1]!, 'base64'), AVATAR_WIDTH, INPUT_LIMITS.avatarMaxPixels);
  } catch {
    return null;
  }
  const answer = { ...scaled, etag: etagOf(scaled.body) };
  await saveAvatarImage(db, { user_id: userId, source_hash: sourceHash, body: answer.body, content_type: answer.contentType, etag: answer.etag });
  return answer;
}
