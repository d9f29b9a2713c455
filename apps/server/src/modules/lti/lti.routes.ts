import type { FastifyInstance, FastifyReply } from 'fastify';
import { LTI_CARTRIDGE_PATH, LTI_LAUNCH_PATH } from '@quire/core';
import { publicUrl } from '../../env.js';
import { emptyResponse, textResponse } from '../../plugins/api-docs.js';
import { issueCustomTokenForUser } from '../identity/custom-token.js';
import { launchEndpoints } from './lti-credentials.service.js';
import { verifyAndProvision } from './lti-launch.service.js';
import { cartridgeXml, launchErrorPage } from './lti-pages.js';

const FORM = 'application/x-www-form-urlencoded';
/** A launch is a few kilobytes; custom parameters leave room. */
const LAUNCH_BODY_LIMIT = 64 * 1024;
const MAX_PARAMS = 500;

function isPair(entry: unknown): entry is [string, string] {
  return Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string' && typeof entry[1] === 'string';
}

function pairs(text: string): Array<[string, string]> {
  return [...new URLSearchParams(text)].slice(0, MAX_PARAMS);
}

function safeReturnUrl(value: string | undefined): URL | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * The LTI 1.1 tool provider (docs/lti.md): POST /lti/launch takes a learning platform's signed
 * basic-lti-launch-request and sends the user into the product with a single-use sign-in token;
 * GET /lti/cartridge.xml is the XML configuration. Launches are cross-site posts: no Origin check.
 */
export async function ltiRoutes(app: FastifyInstance): Promise<void> {
  // The raw form, duplicates and order kept: the signature covers every parameter as sent.
  app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: LAUNCH_BODY_LIMIT }, (_request, body, done) => {
    done(null, pairs(typeof body === 'string' ? body : body.toString('utf8')));
  });

  const productName = app.env.PRODUCT_NAME;
  const refuse = (reply: FastifyReply, status: number, message: string, returnUrl: URL | null) => {
    reply.header('cache-control', 'no-store');
    if (returnUrl) {
      returnUrl.searchParams.set('lti_errormsg', message);
      return reply.redirect(returnUrl.toString(), 302);
    }
    return reply.code(status).type('text/html; charset=utf-8').send(launchErrorPage(productName, message));
  };

  app.post(
    LTI_LAUNCH_PATH,
    {
      config: { csrf: false },
      bodyLimit: LAUNCH_BODY_LIMIT,
      schema: {
        tags: ['lti'],
        summary: 'LTI 1.1 launch (basic-lti-launch-request, OAuth 1.0a HMAC-SHA1 or HMAC-SHA256)',
        description:
          'Form-encoded launch from a learning platform. Valid: 302 to APP_URL/lti?token=… (single-use sign-in token, 3 minutes). Refused: when the signature was verified, 302 to launch_presentation_return_url with lti_errormsg; otherwise (and with no return URL) a 4xx HTML page.',
        response: {
          302: emptyResponse('Into the product (APP_URL/lti?token=…), or back to the platform with lti_errormsg'),
          '4XX': textResponse('text/html', 'Why the launch was refused'),
        },
      },
    },
    async (request, reply) => {
      // The form parser gives [name, value] pairs; any other body (e.g. a JSON array) brings no parameters.
      const body = Array.isArray(request.body) ? (request.body as unknown[]).filter(isPair) : [];
      const [path, query = ''] = request.url.split('?') as [string, string?];
      const params = [...body, ...pairs(query)];
      const result = await verifyAndProvision(app.db, app.env, {
        method: 'POST',
        urls: [`${publicUrl(app.env)}${path}`, `${request.protocol}://${request.host}${path}`],
        params,
        ip: request.ip ?? null,
        userAgent: request.headers['user-agent'] ?? null,
      });
      if (!result.ok) {
        request.log.info({ code: result.code }, 'lti launch refused');
        // The return URL is the platform's only once the platform's signature is verified (else an open redirect).
        const returnUrl = result.signed ? safeReturnUrl(params.find(([n]) => n === 'launch_presentation_return_url')?.[1]) : null;
        return refuse(reply, result.status, result.message, returnUrl);
      }
      const token = await issueCustomTokenForUser(app.auth, result.userId, { ipAddress: request.ip ?? null, userAgent: request.headers['user-agent'] ?? null });
      const target = new URL('/lti', app.env.APP_URL);
      target.searchParams.set('token', token);
      target.searchParams.set('organisationId', result.organisationId);
      reply.header('cache-control', 'no-store');
      return reply.redirect(target.toString(), 302);
    },
  );

  app.get(LTI_LAUNCH_PATH, {
      schema: {
        tags: ['lti'],
        summary: 'Explains that launches come from a learning platform',
        response: { 405: textResponse('text/html', 'A page saying that this address takes LTI launches') },
      },
    }, async (_request, reply) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .type('text/html; charset=utf-8')
      .send(launchErrorPage(productName, `Open ${productName} from your learning platform: this address takes LTI launches, not visits.`)),
  );

  app.get(LTI_CARTRIDGE_PATH, { schema: { tags: ['lti'], summary: 'LTI 1.1 cartridge (XML configuration)', response: { 200: textResponse('application/xml', 'The cartridge') } } }, async (_request, reply) => {
    const { launchUrl, domain } = launchEndpoints(app.env);
    return reply.type('application/xml; charset=utf-8').send(cartridgeXml({ productName, launchUrl, domain }));
  });
}
