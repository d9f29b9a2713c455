import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { APIError } from 'better-auth/api';
import { z } from 'zod';
import { PASSWORD_MIN_LENGTH, validationMessages } from '@quire/core';
import { textResponse } from '../../plugins/api-docs.js';
import { acceptFormBodies } from './form-body.js';
import { resetDonePage, resetFailedPage, resetFormPage } from './reset-password.page.js';

/** GET and POST /auth/reset-password: the page the reset mail links to. */
export async function resetPasswordRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const product = app.env.PRODUCT_NAME;
  acceptFormBodies(app);

  const page = textResponse('text/html', 'The reset page');
  app.get('/auth/reset-password', { schema: { tags: ['auth'], summary: 'The page the reset mail links to', querystring: z.object({ token: z.string().default('') }), response: { 200: page, 400: page } } }, async (request, reply) => {
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('referrer-policy', 'same-origin');
    return request.query.token ? resetFormPage(product, request.query.token) : reply.status(400).send(resetFailedPage(product));
  });

  app.post(
    '/auth/reset-password',
    { schema: { tags: ['auth'], summary: 'Set the new password', body: z.object({ token: z.string(), newPassword: z.string() }), response: { 200: page, 400: page } } },
    async (request, reply) => {
      const { token, newPassword } = request.body;
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      if (newPassword.length < PASSWORD_MIN_LENGTH) {
        return reply.status(400).send(resetFormPage(product, token, validationMessages.passwordTooShort));
      }
      try {
        await app.auth.api.resetPassword({ body: { token, newPassword } });
      } catch (error) {
        if (error instanceof APIError) return reply.status(400).send(resetFailedPage(product));
        throw error;
      }
      return resetDonePage(product);
    },
  );
}
