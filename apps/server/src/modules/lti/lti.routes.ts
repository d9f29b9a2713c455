import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LTI_CARTRIDGE_PATH, LTI_LAUNCH_PATH, LTI_MAX_BODY_BYTES, LTI_MAX_PARAMETERS } from '@quire/core';
import { publicUrl } from '../../env.js';
import { emptyResponse, textResponse } from '../../plugins/api-docs.js';
import { issueCustomTokenForUser } from '../identity/custom-token.js';
import { launchEndpoints } from './lti-credentials.service.js';
import { fail, verifyAndProvision, type LaunchResult } from './lti-launch.service.js';
import { cartridgeXml, launchErrorPage } from './lti-pages.js';

const FORM = 'application/x-www-form-urlencoded';

/** The parsed body of a form with more parameters than a launch carries. */
const TOO_MANY = Symbol('too many parameters');

function isPair(entry: unknown): entry is [string, string] {
  return Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string' && typeof entry[1] === 'string';
}

/** The parameters of a form or query, in order, duplicates kept; null when there are more than a launch carries. */
function pairs(text: string): Array<[string, string]> | null {
  // Counted before parsing: '&' separates parameters, so a body with more of them is refused without building a list.
  let separators = 0;
  for (let i = text.indexOf('&'); i >= 0 && separators <= LTI_MAX_PARAMETERS; i = text.indexOf('&', i + 1)) separators += 1;
  if (separators >= LTI_MAX_PARAMETERS) {
    const all = [...new URLSearchParams(text)];
    return all.length > LTI_MAX_PARAMETERS ? null : all;
  }
  return [...new URLSearchParams(text)];
}

/**
 * A path that is the launch URL written otherwise (a trailing slash, another case). The server's router is exact, so
 * app.ts rewrites those to the launch route (`isMisspelledLaunchPath`), which refuses them with a page naming the
 * launch URL instead of the console's JSON 404.
 */
export function isMisspelledLaunchPath(path: string): boolean {
  return path !== LTI_LAUNCH_PATH && path.toLowerCase().replace(/\/+$/, '') === LTI_LAUNCH_PATH;
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
  // A launch is a form and nothing else: the other parsers are this plugin's no more, so JSON or multipart is refused.
  app.removeAllContentTypeParsers();
  // The raw form, duplicates and order kept: the signature covers every parameter as sent.
  app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: LTI_MAX_BODY_BYTES }, (_request, body, done) => {
    done(null, pairs(typeof body === 'string' ? body : body.toString('utf8')) ?? TOO_MANY);
  });

  const productName = app.env.PRODUCT_NAME;
  /** A refusal before the platform's signature is checked: the page, never a redirect. */
  const refusePage = (reply: FastifyReply, result: LaunchResult & { ok: false }) => refuse(reply, result.status, result.message, null);
  const refuse = (reply: FastifyReply, status: number, message: string, returnUrl: URL | null) => {
    reply.header('cache-control', 'no-store');
    if (returnUrl) {
      returnUrl.searchParams.set('lti_errormsg', message);
      return reply.redirect(returnUrl.toString(), 302);
    }
    return reply.code(status).type('text/html; charset=utf-8').send(launchErrorPage(productName, message));
  };

  /** Fastify's refusals of a body the launch route cannot take, as the launch's page (not the API's JSON). */
  const launchErrorHandler = (error: Error, _request: FastifyRequest, reply: FastifyReply) => {
    const code = (error as { code?: string }).code;
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return refusePage(reply, fail('lti_launch_too_large'));
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH' || code === 'FST_ERR_CTP_EMPTY_TYPE') {
      return refusePage(reply, fail('lti_launch_not_form'));
    }
    if (status >= 400 && status < 500) return refusePage(reply, { ...fail('lti_not_signed'), status });
    // Anything else is the server's own failure: the one error handler answers it.
    throw error;
  };

  app.post(
    LTI_LAUNCH_PATH,
    {
      config: { csrf: false },
      bodyLimit: LTI_MAX_BODY_BYTES,
      errorHandler: launchErrorHandler,
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
      // The path the platform used (app.ts rewrites another spelling of the launch URL to this route).
      const [path, query = ''] = request.originalUrl.split('?') as [string, string?];
      const queryPairs = pairs(query);
      if (request.body === TOO_MANY || queryPairs === null) return refusePage(reply, fail('lti_too_many_parameters'));
      const body = Array.isArray(request.body) ? (request.body as unknown[]).filter(isPair) : [];
      const params = [...body, ...queryPairs];
      const result = await verifyAndProvision(app.db, app.env, {
        method: 'POST',
        urls: [`${publicUrl(app.env)}${path}`, `${request.protocol}://${request.host}${path}`],
        misspelledUrl: isMisspelledLaunchPath(path),
        params,
        ip: request.ip ?? null,
        userAgent: request.headers['user-agent'] ?? null,
      });
      if (!result.ok) {
        request.log.info({ code: result.code }, 'lti launch refused');
        // The return URL is the platform's only once the platform's signature is verified (else an open redirect).
        const returnUrl = result.signed ? safeReturnUrl(params.find(([n]) => n === 'launch_presentation_return_url')?.[1]) : null;
        // A launch sent elsewhere is told where to go: the launch URL is what the admin sets in the platform.
        const message = result.code === 'lti_launch_url' ? `${result.message} It is ${launchEndpoints(app.env).launchUrl}` : result.message;
        return refuse(reply, result.status, message, returnUrl);
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
