import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { notFound } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import { findOrgAccess } from '../access/org-access.js';
import { findAvatarUser, organisationsOfUser } from './avatar.repository.js';

/** Raster images only: an SVG could carry script. */
const DATA_IMAGE = /^data:(image\/(?:png|jpeg|gif|webp));base64,([A-Za-z0-9+/=\s]+)$/;

export type Avatar = { kind: 'redirect'; url: string } | { kind: 'image'; contentType: string; body: Buffer };

const noAvatar = () => notFound('No avatar', 'avatar_not_found');

/**
 * GET {assets}/{userId}/avatar: the user's image, for the actor themselves or a person of an organisation the
 * actor may open. Everything else is a 404, so the console shows initials and ids cannot be probed.
 */
export async function getAvatar(db: Kysely<DB>, actor: Actor, id: string): Promise<Avatar> {
  const user = await findAvatarUser(db, id);
  if (!user?.image) throw noAvatar();
  if (user.id !== actor.userId) {
    const organisations = await organisationsOfUser(db, user);
    let visible = false;
    for (const organisationId of organisations) {
      if (await findOrgAccess(db, actor, organisationId)) {
        visible = true;
        break;
      }
    }
    if (!visible) throw noAvatar();
  }
  const image = user.image.trim();
  if (/^https?:\/\//i.test(image)) return { kind: 'redirect', url: image };
  const data = DATA_IMAGE.exec(image);
  if (data) return { kind: 'image', contentType: data[1]!, body: Buffer.from(data[2]!, 'base64') };
  throw noAvatar();
}
