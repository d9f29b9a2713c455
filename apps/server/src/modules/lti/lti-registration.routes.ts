import type { FastifyInstance } from 'fastify';
import { LTI13_REGISTER_PATH } from '@quire/core';
import { textResponse } from '../../plugins/api-docs.js';
import { clientOf } from '../access/actor.js';
import { firstValues, formPairs, framable, htmlPage, pairs, type FormPostOptions } from './lti-http.js';
import { REGISTRATION_CLOSE_SCRIPT_SOURCE, registrationConfirmPage, registrationDonePage, registrationErrorPage } from './lti-pages.js';
import { completeRegistration, prepareRegistration } from './lti-registration.service.js';

/**
 * LTI Dynamic Registration's two routes (docs/lti.md): registered by ltiRoutes in its own scope, whose form parser
 * reads the confirmation, and whose launch error handler answers a body it cannot take with a page.
 */
export function registrationRoutes(
  app: FastifyInstance,
  formPost: FormPostOptions,
): void {
  const productName = app.env.PRODUCT_NAME;
  // LTI Dynamic Registration: the platform opens the admin's registration address (in a frame or a window) with its
  // configuration's URL; the admin confirms; the tool registers itself. The signed, single-use address is what binds
  // it to the organisation and the admin (no console session reaches a platform's frame), so no Origin check here: a
  // sandboxed frame may send Origin: null.
  const registrationParams = (fields: Record<string, string | undefined>) => ({
    token: fields.t,
    openidConfiguration: fields.openid_configuration,
    registrationToken: fields.registration_token,
  });
  app.get(
    LTI13_REGISTER_PATH,
    {
      schema: {
        tags: ['lti'],
        summary: 'LTI Dynamic Registration: the page the platform opens (t, openid_configuration, registration_token)',
        description:
          'Reads the platform’s OpenID configuration (https; its issuer on the configuration URL’s origin) and asks the admin to confirm. A registration address that is forged or expired, or a configuration that cannot be used: a 4xx page.',
        response: { 200: textResponse('text/html', 'The confirmation'), '4XX': textResponse('text/html', 'Why the registration cannot go on') },
      },
    },
    async (request, reply) => {
      framable(reply, { formAction: "'self'" });
      const fields = firstValues(pairs(request.url.split('?')[1] ?? '') ?? []);
      const prepared = await prepareRegistration(app.env, registrationParams(fields));
      if (!prepared.ok) {
        request.log.info({ code: prepared.code }, 'lti registration refused');
        return htmlPage(reply, prepared.status, registrationErrorPage(productName, prepared.message));
      }
      const params = registrationParams(fields);
      return htmlPage(
        reply,
        200,
        registrationConfirmPage(productName, {
          action: LTI13_REGISTER_PATH,
          name: prepared.name,
          issuer: prepared.issuer,
          token: params.token ?? '',
          openidConfiguration: params.openidConfiguration ?? '',
          registrationToken: params.registrationToken,
        }),
      );
    },
  );
  app.post(
    LTI13_REGISTER_PATH,
    {
      ...formPost,
      schema: {
        tags: ['lti'],
        summary: 'LTI Dynamic Registration: the admin’s confirmation; the tool registers at the platform and stores it',
        description:
          'Form post of the confirmation (t, openid_configuration, registration_token). The address is used once; the tool POSTs its registration to the platform’s registration_endpoint and stores the client id and deployment id as a learning platform of the organisation (audited as lti.platform.add). Then a page that posts org.imsglobal.lti.close to the platform. Refused: a 4xx page.',
        response: { 200: textResponse('text/html', 'Registered; the close message'), '4XX': textResponse('text/html', 'Why the registration was refused') },
      },
    },
    async (request, reply) => {
      const fields = firstValues(formPairs(request.body));
      const done = await completeRegistration(app.db, app.env, { ...registrationParams(fields), productName, client: clientOf(request) });
      if (!done.ok) {
        framable(reply);
        request.log.info({ code: done.code }, 'lti registration refused');
        return htmlPage(reply, done.status, registrationErrorPage(productName, done.message));
      }
      framable(reply, { script: REGISTRATION_CLOSE_SCRIPT_SOURCE });
      const page = registrationDonePage(productName, { name: done.platform.name, clientId: done.platform.clientId, deploymentId: done.platform.deploymentIds[0] ?? '' });
      return htmlPage(reply, 200, page);
    },
  );
}
