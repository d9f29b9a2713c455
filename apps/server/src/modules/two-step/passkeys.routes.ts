import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  customTokenSchema,
  errorResponseSchema,
  passkeyAddBodySchema,
  passkeyAddedSchema,
  passkeyOptionsSchema,
  passkeyParamsSchema,
  passkeyRenameBodySchema,
  passkeySchema,
  passkeySignInBodySchema,
  TRUSTED_DEVICE_DAYS,
  twoStepChangedSchema,
  twoStepPasskeyVerifyBodySchema,
  twoStepVerifiedSchema,
} from '@quire/core';
import { requireActor, requireSessionPerson } from '../access/actor.js';
import { issueCustomTokenForSession } from '../identity/custom-token.js';
import { authRateLimit, registerAuthRateLimit } from '../identity/rate-limit.js';
import * as service from './passkeys.service.js';
import { markSessionSecondStep } from './two-step.repository.js';
import { TRUST_COOKIE, type TwoStepDeps } from './two-step.service.js';

const tags = ['two-step'];
const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema, 429: errorResponseSchema };
const noStore = { onSend: async (_request: unknown, reply: { header(name: string, value: string): unknown }) => void reply.header('cache-control', 'no-store') };

/** Passkeys (WebAuthn): added on the Security page, used as the second step, or to sign in without a password. */
export const passkeyRoutes: FastifyPluginAsyncZod<{ deps: TwoStepDeps }> = async (app, { deps }) => {
  await registerAuthRateLimit(app);

  app.post(
    '/api/two-step/passkeys/options',
    {
      ...noStore,
      schema: {
        tags,
        summary: 'Start adding a passkey: WebAuthn creation options with a challenge, usable once within 5 minutes',
        response: { 200: passkeyOptionsSchema, ...errors },
      },
    },
    async (request) => service.registrationOptions(deps, requireActor(request)),
  );

  app.post(
    '/api/two-step/passkeys',
    {
      schema: {
        tags,
        summary: "Add a passkey: the browser's answer to the creation options, and its name",
        description:
          'The first second factor of the account turns 2-step verification on and answers 10 recovery codes (shown this once; otherwise `recoveryCodes` is null). 400 `passkey_refused` (another origin or site, a bad signature, a passkey already added), `passkey_challenge_expired`.',
        body: passkeyAddBodySchema,
        response: { 200: passkeyAddedSchema, ...errors },
      },
    },
    async (request) => service.addPasskey(deps, requireActor(request), request.body),
  );

  app.patch(
    '/api/two-step/passkeys/:passkeyId',
    {
      schema: { tags, summary: 'Rename a passkey', params: passkeyParamsSchema, body: passkeyRenameBodySchema, response: { 200: passkeySchema, ...errors } },
    },
    async (request) => service.renamePasskey(deps, requireActor(request), request.params.passkeyId, request.body.name),
  );

  app.delete(
    '/api/two-step/passkeys/:passkeyId',
    {
      schema: {
        tags,
        summary: 'Remove a passkey',
        description: '409 `passkey_last_method` for the account’s only second factor: turning 2-step verification off (with the password or a code) removes it.',
        params: passkeyParamsSchema,
        response: { 200: twoStepChangedSchema, ...errors },
      },
    },
    async (request) => service.removePasskey(deps, requireActor(request), request.params.passkeyId),
  );

  app.post(
    '/api/two-step/verify/passkey-options',
    { schema: { tags, summary: "The second step with a passkey: WebAuthn request options for the person's own passkeys", response: { 200: passkeyOptionsSchema, ...errors } } },
    async (request) => service.secondStepOptions(deps, requireSessionPerson(request)),
  );

  app.post(
    '/api/two-step/verify/passkey',
    {
      schema: {
        tags,
        summary: "The sign-in's second step with a passkey",
        description: 'With `trustDevice`, this browser skips the second step for 30 days. 400 `passkey_refused`, `passkey_challenge_expired`; 429 `two_step_too_many_tries`.',
        body: twoStepPasskeyVerifyBodySchema,
        response: { 200: twoStepVerifiedSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { answer, trustToken } = await service.verifySecondStepPasskey(deps, requireSessionPerson(request), request.body, request.ip);
      if (trustToken) {
        reply.header('set-cookie', `${TRUST_COOKIE}=${trustToken}; Max-Age=${TRUSTED_DEVICE_DAYS * 86_400}; Path=/identity; HttpOnly; Secure; SameSite=Lax`);
      }
      return answer;
    },
  );

  app.post(
    '/auth/passkey/options',
    {
      ...noStore,
      config: { rateLimit: authRateLimit(30, 'other') },
      schema: { tags: ['auth'], summary: 'Sign in with a passkey: WebAuthn request options (any passkey of this site)', response: { 200: passkeyOptionsSchema, 429: errorResponseSchema } },
    },
    async () => service.signInOptions(deps),
  );

  app.post(
    '/auth/passkey',
    {
      config: { rateLimit: authRateLimit(10) },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a passkey alone (both steps): a custom token, as the e-mail sign-in answers',
        description: 'Turn the token into the session with `POST /identity/one-time-token/verify`. 400 `passkey_refused`, `passkey_challenge_expired`; 429.',
        body: passkeySignInBodySchema,
        response: { 200: customTokenSchema, 400: errorResponseSchema, 429: errorResponseSchema },
      },
    },
    async (request) => {
      const signInAs = async (userId: string) => {
        const context = await app.auth.$context;
        const session = await context.internalAdapter.createSession(userId, false, { ipAddress: request.ip ?? '', userAgent: request.headers['user-agent'] ?? '' });
        await markSessionSecondStep(app.db, session.id, 'passkey');
        return issueCustomTokenForSession(app.auth, session.token);
      };
      return service.signInWithPasskey({ ...deps, signInAs }, request.body.response);
    },
  );
};
