import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { identityVerificationParamsSchema } from '@quire/core';
import { appError } from '../../errors.js';
import { textResponse } from '../../plugins/api-docs.js';
import { requireActor } from '../access/actor.js';
import { chatSupportHash } from './chat-support.service.js';

/** The chat-support widget's identity verification (spec §7, docs/chat-support.md). */
export async function chatSupportRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/users/v2/:uid/:chatSupportProvider/identity-verification',
    {
      schema: {
        tags: ['auth'],
        summary: "The chat-support identity-verification hash of the signed-in user",
        params: identityVerificationParamsSchema,
        response: { 200: textResponse('text/plain', 'The hash (hex)') },
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      if (request.params.uid !== actor.userId) throw appError('forbidden', { message: 'You can only verify your own identity' });
      return reply.type('text/plain; charset=utf-8').send(chatSupportHash(app.env, request.params.chatSupportProvider, actor.userId));
    },
  );
}
