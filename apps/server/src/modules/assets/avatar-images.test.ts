import sharp from 'sharp';
import { INPUT_LIMITS } from '@quire/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../../test/auth.js';
import { buildTeacher, buildUser } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { orgWithAdmin } from '../../../test/teachers.helpers.js';
import { initialsOf, renderInitials } from './images.js';

let t: TestApp;
/** 6,300 × 6,300 px in 128 KB: cheap to send, about a second of decoding each time it is decoded. */
let huge: string;
beforeAll(async () => {
  t = await buildTestApp();
  const png = await sharp({ create: { width: 6300, height: 6300, channels: 3, background: '#336699' } }).png({ compressionLevel: 9 }).toBuffer();
  huge = `data:image/png;base64,${png.toString('base64')}`;
}, 60_000);
afterAll(() => t.close());

const dataUrl = async (width: number, height: number, background = '#336699') =>
  `data:image/png;base64,${(await sharp({ create: { width, height, channels: 3, background } }).png().toBuffer()).toString('base64')}`;

describe('avatar uploads', () => {
  it('refuses a picture with more pixels than the limit, saying why, and keeps the one before', async () => {
    const user = await buildUser(t.app.db);
    const { headers } = await signIn(t.app, { email: user.email });
    const refused = await t.app.inject({ method: 'POST', url: '/identity/update-user', headers, payload: { image: huge } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      code: 'avatar_too_many_pixels',
      message: 'The avatar image is 6300 × 6300 pixels; it can have at most 16,777,216 pixels (4096 × 4096)',
    });
    expect((await t.app.db.selectFrom('user').select('image').where('id', '=', user.id).executeTakeFirstOrThrow()).image).toBe(user.image);
    const fine = await t.app.inject({ method: 'POST', url: '/identity/update-user', headers, payload: { image: await dataUrl(400, 300) } });
    expect(fine.statusCode).toBe(200);
    expect(INPUT_LIMITS.avatarMaxPixels).toBe(4096 * 4096);
  });
});

describe('GET /assets/{userId}/avatar decodes a picture once', () => {
  it('stores the scaled picture on first use and serves the stored one after, with an ETag and revalidation', async () => {
    const admin = await orgWithAdmin(t.app);
    const user = await buildUser(t.app.db, { image: await dataUrl(400, 300) });
    await buildTeacher(t.app.db, { organisationId: admin.orgId, user_id: user.id, email: user.email });
    const first = await t.app.inject({ url: `/assets/${user.id}/avatar`, headers: admin.headers });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/webp');
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const stored = await t.app.db.selectFrom('avatar_images').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(stored.etag).toBe(first.headers.etag);
    expect(Buffer.from(stored.body).equals(first.rawPayload)).toBe(true);

    // What is served now comes from storage, not from decoding the picture again.
    const marker = await sharp({ create: { width: 128, height: 96, channels: 3, background: '#ff0000' } }).webp().toBuffer();
    await t.app.db.updateTable('avatar_images').set({ body: marker }).where('user_id', '=', user.id).execute();
    const second = await t.app.inject({ url: `/assets/${user.id}/avatar`, headers: admin.headers });
    expect(second.rawPayload.equals(marker)).toBe(true);
    expect((await t.app.inject({ url: `/assets/${user.id}/avatar`, headers: { ...admin.headers, 'if-none-match': first.headers.etag as string } })).statusCode).toBe(304);

    // A new picture is decoded (once) again.
    await t.app.db.updateTable('user').set({ image: await dataUrl(300, 300, '#00ff00') }).where('id', '=', user.id).execute();
    const changed = await t.app.inject({ url: `/assets/${user.id}/avatar`, headers: admin.headers });
    expect(changed.headers.etag).not.toBe(first.headers.etag);
    expect((await sharp(changed.rawPayload).metadata()).height).toBe(128);
  });

  it('does not decode a stored picture beyond the pixel limit (one saved before the limit): initials instead', async () => {
    const admin = await orgWithAdmin(t.app);
    const user = await buildUser(t.app.db, { name: 'Big Picture', image: huge });
    await buildTeacher(t.app.db, { organisationId: admin.orgId, user_id: user.id, email: user.email });
    const answer = await t.app.inject({ url: `/assets/${user.id}/avatar`, headers: admin.headers });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('image/png');
    // The person's initials, as a person without a picture gets them; nothing scaled from the picture is kept.
    expect(answer.rawPayload.equals(await renderInitials(initialsOf('Big Picture', user.email), user.id))).toBe(true);
    expect(await t.app.db.selectFrom('avatar_images').select('user_id').where('user_id', '=', user.id).executeTakeFirst()).toBeUndefined();
  });
});
