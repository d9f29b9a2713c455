import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  authenticatorSetupSchema,
  errorResponseSchema,
  organisationParamsSchema,
  recoveryCodesSchema,
  TRUSTED_DEVICE_DAYS,
  twoStepChangedSchema,
  twoStepCodeBodySchema,
  twoStepPolicyBodySchema,
  twoStepPolicySchema,
  twoStepProofSchema,
  twoStepResetParamsSchema,
  twoStepStatusSchema,
  twoStepVerifiedSchema,
  twoStepVerifyBodySchema,
} from '@quire/core';
import { requireActor, requireSessionPerson } from '../access/actor.js';
import * as service from './two-step.service.js';
import { passkeyRoutes } from './passkeys.routes.js';

const tags = ['two-step'];
const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 409: errorResponseSchema, 429: errorResponseSchema };
const orgErrors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema };

/** 2-step verification: the Security page, the sign-in's second step, an organisation's policy and an admin's reset. */
export const twoStepRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps: service.TwoStepDeps = {
    db: app.db,
    env: app.env,
    sendMail: (mail) => app.mail.send(mail),
    verifyPassword: async (hash, password) => (await app.auth.$context).password.verify({ hash, password }),
  };
  await app.register(passkeyRoutes, { deps });
  const noStore = { onSend: async (_request: unknown, reply: { header(name: string, value: string): unknown }) => void reply.header('cache-control', 'no-store') };

  app.get(
    '/api/two-step',
    { schema: { tags, summary: "The signed-in person's 2-step verification (never a secret or a code)", response: { 200: twoStepStatusSchema, ...errors } } },
    async (request) => service.readStatus(deps, requireActor(request)),
  );

  app.post(
    '/api/two-step/authenticator',
    {
      ...noStore,
      schema: {
        tags,
        summary: 'Start adding an authenticator app: a new secret and its QR code, pending until a first code confirms it',
        description: 'Replaces an unconfirmed set-up. 409 `two_step_already_on` when an authenticator app is already confirmed.',
        response: { 200: authenticatorSetupSchema, ...errors },
      },
    },
    async (request) => service.startAuthenticator(deps, requireActor(request)),
  );

  app.post(
    '/api/two-step/authenticator/confirm',
    {
      ...noStore,
      schema: {
        tags,
        summary: 'Turn 2-step verification on with the first code of the set-up; answers 10 recovery codes, shown this once',
        description:
          'Every other session of the person ends; this one counts as having passed its second step. 400 `two_step_code_wrong` (nothing changes), `two_step_enrolment_expired` after 10 minutes, `two_step_code_malformed`; 429 `two_step_too_many_tries` with `retryAfterSeconds`.',
        body: twoStepCodeBodySchema,
        response: { 200: recoveryCodesSchema, ...errors },
      },
    },
    async (request) => service.confirmAuthenticator(deps, requireActor(request), request.body.code, request.ip),
  );

  app.post(
    '/api/two-step/recovery-codes',
    {
      ...noStore,
      schema: {
        tags,
        summary: 'New recovery codes (the old ones stop working), after the password or a current code',
        body: twoStepProofSchema,
        response: { 200: recoveryCodesSchema, ...errors },
      },
    },
    async (request) => service.regenerateRecoveryCodes(deps, requireActor(request), request.body, request.ip),
  );

  app.post(
    '/api/two-step/disable',
    {
      schema: {
        tags,
        summary: 'Turn 2-step verification off, after the password or a current code',
        description: '400 `two_step_proof_wrong` when neither is right (counted like a wrong code).',
        body: twoStepProofSchema,
        response: { 200: twoStepChangedSchema, ...errors },
      },
    },
    async (request) => service.disableTwoStep(deps, requireActor(request), request.body, request.ip),
  );

  app.post(
    '/api/two-step/verify',
    {
      schema: {
        tags,
        summary: "The sign-in's second step: a code from the authenticator app or a recovery code",
        description:
          'For a session waiting for its second step. With `trustDevice`, this browser skips the second step for 30 days (an HttpOnly cookie). A code is accepted once, within one 30-second step either side. 400 `two_step_code_wrong`, 429 `two_step_too_many_tries` with `retryAfterSeconds`.',
        body: twoStepVerifyBodySchema,
        response: { 200: twoStepVerifiedSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { answer, trustToken } = await service.verifySecondStep(deps, requireSessionPerson(request), request.body, request.ip);
      if (trustToken) {
        reply.header('set-cookie', `${service.TRUST_COOKIE}=${trustToken}; Max-Age=${TRUSTED_DEVICE_DAYS * 86_400}; Path=/identity; HttpOnly; Secure; SameSite=Lax`);
      }
      return answer;
    },
  );

  app.get(
    '/api/organisations/:orgId/two-step-policy',
    {
      schema: {
        tags,
        summary: "The organisation's 'Require 2-step verification for admins', and whether an organisation above requires it",
        params: organisationParamsSchema,
        response: { 200: twoStepPolicySchema, ...orgErrors },
      },
    },
    async (request) => service.readPolicy(app.db, requireActor(request), request.params.orgId),
  );

  app.put(
    '/api/organisations/:orgId/two-step-policy',
    {
      schema: {
        tags,
        summary: "Set 'Require 2-step verification for admins' (admins only; applies to the admins of the organisations below too)",
        params: organisationParamsSchema,
        body: twoStepPolicyBodySchema,
        response: { 200: twoStepPolicySchema, ...orgErrors },
      },
    },
    async (request) => service.writePolicy(app.db, requireActor(request), request.params.orgId, request.body.requireForAdmins),
  );

  app.post(
    '/api/organisations/:orgId/admins/:userId/two-step/reset',
    {
      schema: {
        tags,
        summary: "Reset another admin's 2-step verification (a lost phone): their authenticator app, recovery codes and trusted devices are removed and their sessions end",
        description: 'Admins of the organisation only, never for themselves (403 `two_step_reset_self`). Recorded and mailed to the person.',
        params: twoStepResetParamsSchema,
        response: { 200: twoStepChangedSchema, ...orgErrors },
      },
    },
    async (request) => service.resetForAdmin(deps, requireActor(request), request.params.orgId, request.params.userId),
  );
};
