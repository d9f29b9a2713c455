import { INPUT_LIMITS } from '@quire/core';
import sharp from 'sharp';
import { appError } from '../../errors.js';

const DATA_IMAGE = /^data:image\/[a-z0-9.+-]+;base64,([A-Za-z0-9+/=\s]+)$/i;

/**
 * Refuses (400 avatar_too_many_pixels) a data: URL picture of more than INPUT_LIMITS.avatarMaxPixels: a 27 KB
 * GIF can declare 6,300 × 6,300 pixels, and decoding that takes most of a second. Reads the image's header only.
 * Anything that is not a readable data: image is left alone: the avatar call serves initials for it.
 */
export async function checkAvatarPixels(image: string): Promise<void> {
  const data = DATA_IMAGE.exec(image.trim());
  if (!data) return;
  let size: { width?: number; height?: number };
  try {
    size = await sharp(Buffer.from(data[1]!, 'base64')).metadata();
  } catch {
    return;
  }
  const { width = 0, height = 0 } = size;
  const max = INPUT_LIMITS.avatarMaxPixels;
  if (width * height > max) {
    const side = Math.floor(Math.sqrt(max));
    throw appError('avatar_too_many_pixels', {
      message: `The avatar image is ${width} × ${height} pixels; it can have at most ${max.toLocaleString('en')} pixels (${side} × ${side})`,
    });
  }
}
