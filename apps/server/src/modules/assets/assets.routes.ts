import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { coverQuerySchema } from '@quire/core';
import { emptyResponse, textResponse } from '../../plugins/api-docs.js';
import { requireActor } from '../access/actor.js';
import { getAvatar, getCover, type ImageAnswer } from './assets.service.js';

const tags = ['assets'];
const image = { 200: textResponse('image/*', 'The image (PNG, JPEG, WebP or SVG)'), 304: emptyResponse('The browser already has it (ETag)') };
const id = z.string().min(1).max(200);

/** Sends an image with its ETag, or a 304 when the browser already has it. */
function sendImage(request: FastifyRequest, reply: FastifyReply, image: ImageAnswer, cacheControl: string) {
  reply
    .header('cache-control', cacheControl)
    .header('etag', image.etag)
    .header('x-content-type-options', 'nosniff')
    .header('vary', 'Cookie');
  if (request.headers['if-none-match'] === image.etag) return reply.code(304).send();
  return reply.type(image.contentType).send(image.body);
}

/** The {assets} service of spec §7: avatars and book covers (docs/resources.md). */
export const assetsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/assets/:userId/avatar',
    { schema: { tags, summary: "A person's picture, or a generated initials image (404 for people you cannot see)", params: z.object({ userId: id }), response: image } },
    async (request, reply) => {
      const image = await getAvatar(app.db, requireActor(request), request.params.userId);
      // Private (the person's organisations only) and asked again each time: a changed picture or a lost access
      // shows at once, and the answer is a 304 from the stored ETag, with nothing decoded.
      return sendImage(request, reply, image, 'private, no-cache');
    },
  );

  app.get(
    '/assets/:userId/:bookId',
    {
      schema: {
        tags,
        summary: "A book's cover scaled to ?width= (250 on Teacher Resources); ?retry= marks the one retry after a failure",
        params: z.object({ userId: id, bookId: id }),
        querystring: coverQuerySchema,
        response: image,
      },
    },
    async (request, reply) => {
      const image = await getCover(app.db, requireActor(request), request.params.userId, request.params.bookId, request.query.width);
      return sendImage(request, reply, image, 'private, max-age=86400');
    },
  );
};
