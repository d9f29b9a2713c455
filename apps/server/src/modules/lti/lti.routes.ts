import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  LTI13_DEEP_LINK_PATH,
  LTI13_JWKS_PATH,
  LTI13_LAUNCH_PATH,
  LTI13_LOGIN_PATH,
  LTI13_STORAGE_LAUNCH_PATH,
  LTI_CARTRIDGE_PATH,
  LTI_LAUNCH_PATH,
  LTI_MAX_BODY_BYTES,
  ltiJwksSchema,
  parseLtiTarget,
  type LtiDeepLinkChoice,
} from '@quire/core';
import { publicUrl } from '../../env.js';
import { emptyResponse, textResponse } from '../../plugins/api-docs.js';
import { issueCustomTokenForUser } from '../identity/custom-token.js';
import { launchEndpoints } from './lti-credentials.service.js';
import { fail, verifyAndProvision, type LaunchResult } from './lti-launch.service.js';
import {
  AUTO_SUBMIT_SCRIPT_SOURCE,
  cartridgeXml,
  deepLinkPickerPage,
  deepLinkResponsePage,
  launchErrorPage,
  PLATFORM_STORAGE_SCRIPT_SOURCE,
  platformStorageLaunchPage,
  platformStorageLoginPage,
} from './lti-pages.js';
import { firstValues, formPairs, framable, htmlPage, pairs, safeReturnUrl, type FormPostOptions } from './lti-http.js';
import { registrationRoutes } from './lti-registration.routes.js';
import { NRPS_QUEUE, NRPS_SYNC_SECONDS, nrpsJobOf, type NrpsJobData } from './lti-nrps.service.js';
import { completeLaunch, startLogin, type Lti13LaunchResult, type PlatformKeySets } from './lti-advantage.service.js';
import { answerDeepLink, encodeDeepLinkContext } from './lti-deep-linking.service.js';
import { publicJwks } from './lti-tool-keys.js';

const FORM = 'application/x-www-form-urlencoded';

/** The parsed body of a form with more parameters than a launch carries. */
const TOO_MANY = Symbol('too many parameters');



/**
 * A path that is the launch URL written otherwise (a trailing slash, another case). The server's router is exact, so
 * app.ts rewrites those to the launch route (`isMisspelledLaunchPath`), which refuses them with a page naming the
 * launch URL instead of the console's JSON 404.
 */
export function isMisspelledLaunchPath(path: string): boolean {
  return path !== LTI_LAUNCH_PATH && path.toLowerCase().replace(/\/+$/, '') === LTI_LAUNCH_PATH;
}

/**
 * The LTI 1.1 tool provider (docs/lti.md): POST /lti/launch takes a learning platform's signed
 * basic-lti-launch-request and sends the user into the product with a single-use sign-in token;
 * GET /lti/cartridge.xml is the XML configuration. Launches are cross-site posts: no Origin check.
 */
export async function ltiRoutes(app: FastifyInstance, options: { keySets: PlatformKeySets }): Promise<void> {
  // A launch is a form and nothing else: the other parsers are this plugin's no more, so JSON or multipart is refused.
  app.removeAllContentTypeParsers();
  // The raw form, duplicates and order kept: the signature covers every parameter as sent.
  app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: LTI_MAX_BODY_BYTES }, (_request, body, done) => {
    done(null, pairs(typeof body === 'string' ? body : body.toString('utf8')) ?? TOO_MANY);
  });

  const productName = app.env.PRODUCT_NAME;
  /** A refusal before the platform's signature is checked: the page, never a redirect. */
  const refusePage = (reply: FastifyReply, result: LaunchResult & { ok: false }) => refuse(reply, result.status, result.message, null);
  const refuse = (reply: FastifyReply, status: number, message: string, returnUrl: URL | null, action?: { href: string; label: string }) => {
    reply.header('cache-control', 'no-store');
    if (returnUrl) {
      returnUrl.searchParams.set('lti_errormsg', message);
      return reply.redirect(returnUrl.toString(), 302);
    }
    return reply.code(status).type('text/html; charset=utf-8').send(launchErrorPage(productName, message, action));
  };
  /**
   * Into the product with a single-use sign-in token (APP_URL/lti?token=…), as every launch ends; a link made by deep
   * linking adds what it opens (`target=home`, or `target=book&bookId=…`).
   */
  const intoProduct = async (request: FastifyRequest, reply: FastifyReply, userId: string, organisationId: string, opens?: LtiDeepLinkChoice | null) => {
    const token = await issueCustomTokenForUser(app.auth, userId, { ipAddress: request.ip ?? null, userAgent: request.headers['user-agent'] ?? null });
    const target = new URL('/lti', app.env.APP_URL);
    target.searchParams.set('token', token);
    target.searchParams.set('organisationId', organisationId);
    if (opens) target.searchParams.set('target', opens.target);
    if (opens?.target === 'book') target.searchParams.set('bookId', opens.bookId);
    reply.header('cache-control', 'no-store');
    return reply.redirect(target.toString(), 302);
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

  const formPost: FormPostOptions = { config: { csrf: false }, bodyLimit: LTI_MAX_BODY_BYTES, errorHandler: launchErrorHandler };

  app.post(
    LTI_LAUNCH_PATH,
    {
      ...formPost,
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
      // The path the platform used (app.ts rewrites another spelling of the launch URL to this route).
      const [path, query = ''] = request.originalUrl.split('?') as [string, string?];
      const queryPairs = pairs(query);
      if (request.body === TOO_MANY || queryPairs === null) return refusePage(reply, fail('lti_too_many_parameters'));
      const body = formPairs(request.body);
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
      return intoProduct(request, reply, result.userId, result.organisationId);
    },
  );

  /** The end of an LTI 1.3 launch (from the platform, or read back from its storage): refused, the picker, or in. */
  const finishLaunch = async (request: FastifyRequest, reply: FastifyReply, result: Lti13LaunchResult) => {
    if (!result.ok) {
      if (result.readStorage) return refusePage(reply, fail('lti_storage_mismatch'));
      request.log.info({ code: result.code }, 'lti 1.3 launch refused');
      const returnUrl = result.signed ? safeReturnUrl(result.returnUrl) : null;
      const action = result.retryUrl ? { href: result.retryUrl, label: `Open ${productName} in a new window` } : undefined;
      return refuse(reply, result.status, result.message, returnUrl, action);
    }
    if (result.deepLink) {
      // A deep linking request: the teacher chooses what the link opens, on the tool, in the platform's frame.
      const context = encodeDeepLinkContext(app.env, {
        platformId: result.platformId,
        deploymentId: result.deploymentId,
        userId: result.userId,
        organisationId: result.organisationId,
        request: result.deepLink,
      });
      framable(reply, { formAction: "'self'" });
      return htmlPage(reply, 200, deepLinkPickerPage({ productName, action: LTI13_DEEP_LINK_PATH, context }));
    }
    if (result.kind === 'teacher') {
      const contextId = result.claims['https://purl.imsglobal.org/spec/lti/claim/context'];
      const id = contextId && typeof contextId === 'object' ? (contextId as Record<string, unknown>).id : undefined;
      const job = nrpsJobOf(app.env, result.claims, result.platformId, typeof id === 'string' ? id.slice(0, 255) : null);
      // Once an hour per course at most (the job's singleton window); the launch goes on whatever the queue says.
      if (job) {
        await app.jobs
          .send<NrpsJobData>(NRPS_QUEUE, job, { singletonKey: `${job.platformId} ${job.membershipsUrl}`.slice(0, 500), singletonSeconds: NRPS_SYNC_SECONDS })
          .catch((error: unknown) => request.log.warn({ err: error }, 'lti course roster not queued'));
      }
    }
    const custom = result.claims['https://purl.imsglobal.org/spec/lti/claim/custom'];
    const opens = custom && typeof custom === 'object' ? parseLtiTarget((custom as Record<string, unknown>).target) : null;
    return intoProduct(request, reply, result.userId, result.organisationId, opens);
  };

  // Cookies inside a platform's frame are third-party: on https the state cookie is SameSite=None; Secure and
  // Partitioned (kept per platform site where browsers block third-party cookies); on plain http (a school's LAN, a
  // developer's machine) it is Lax, which browsers keep for a same-site platform only.
  const secure = publicUrl(app.env).startsWith('https:');
  const loginSchema = (summary: string) => ({
    tags: ['lti'],
    summary,
    description:
      'Third-party initiated login (iss, login_hint, target_link_uri, lti_message_hint, client_id, lti_deployment_id): 302 to the platform’s authorisation endpoint with state and nonce; the state bound to this browser by a cookie. Refused: a 4xx HTML page.',
    response: {
      200: textResponse('text/html', 'With lti_storage_target: the page that keeps the state and nonce in the platform’s storage, then goes on to the authorisation endpoint'),
      302: emptyResponse('To the platform’s OIDC authorisation endpoint'),
      '4XX': textResponse('text/html', 'Why the login was refused'),
    },
  });
  const login = async (request: FastifyRequest, reply: FastifyReply, params: Record<string, string | undefined>) => {
    framable(reply);
    const outcome = await startLogin(app.db, app.env, params);
    if (!outcome.ok) {
      request.log.info({ code: outcome.code }, 'lti 1.3 login refused');
      return refuse(reply, outcome.status, outcome.message, null);
    }
    reply.setCookie(outcome.cookie.name, outcome.cookie.value, {
      path: '/lti/1.3',
      httpOnly: true,
      maxAge: outcome.cookie.maxAge,
      ...(secure ? { sameSite: 'none', secure: true, partitioned: true } : { sameSite: 'lax' }),
    });
    if (outcome.storage) {
      // The platform keeps the login for the tool (LTI Client Side postMessage): the cookie is still set, and used
      // where the browser keeps it, but the page also keeps the state and nonce in the platform's storage.
      framable(reply, { script: PLATFORM_STORAGE_SCRIPT_SOURCE });
      return htmlPage(reply, 200, platformStorageLoginPage(productName, { ...outcome.storage, next: outcome.redirect }));
    }
    reply.header('cache-control', 'no-store');
    return reply.redirect(outcome.redirect, 302);
  };
  app.get(LTI13_LOGIN_PATH, { schema: loginSchema('LTI 1.3 login initiation (GET)') }, async (request, reply) => {
    const query = request.url.split('?')[1] ?? '';
    return login(request, reply, firstValues(pairs(query) ?? []));
  });
  app.post(
    LTI13_LOGIN_PATH,
    { ...formPost, schema: loginSchema('LTI 1.3 login initiation (POST)') },
    async (request, reply) => {
      const body = formPairs(request.body);
      return login(request, reply, firstValues(body));
    },
  );

  app.post(
    LTI13_LAUNCH_PATH,
    {
      ...formPost,
      schema: {
        tags: ['lti'],
        summary: 'LTI 1.3 launch (the platform posts id_token and state): redirect URI and target link URI',
        description:
          'Valid: 302 to APP_URL/lti?token=… (single-use sign-in token). Refused: once the id_token is verified, 302 to its launch_presentation.return_url with lti_errormsg; otherwise a 4xx HTML page (with a link to open the tool in a new window when the browser kept no state cookie).',
        response: {
          302: emptyResponse('Into the product (APP_URL/lti?token=…), or back to the platform with lti_errormsg'),
          '4XX': textResponse('text/html', 'Why the launch was refused'),
        },
      },
    },
    async (request, reply) => {
      framable(reply);
      const form = firstValues(formPairs(request.body));
      if (form.error) {
        // The platform refused the login (e.g. login_required): said as it is, nothing signed to go back to.
        const detail = (form.error_description ?? form.error).slice(0, 300);
        return refuse(reply, 400, `${fail('lti_login_invalid').message} The learning platform answered: ${detail}`, null);
      }
      const result = await completeLaunch(app.db, app.env, options.keySets, {
        idToken: form.id_token,
        state: form.state,
        cookies: request.cookies,
        ip: request.ip ?? null,
        userAgent: request.headers['user-agent'] ?? null,
      });
      if (!result.ok && result.readStorage) {
        // No cookie came, and the login kept its state in the platform's storage: this page reads it back there and
        // posts it, with the platform's id_token and state, to the storage launch from the tool's own origin. Its
        // form's answer goes into the product or back to the platform: no form-action names them all.
        framable(reply, { formAction: null, script: PLATFORM_STORAGE_SCRIPT_SOURCE });
        const page = platformStorageLaunchPage(productName, {
          ...result.readStorage,
          idToken: form.id_token ?? '',
          state: form.state ?? '',
          action: LTI13_STORAGE_LAUNCH_PATH,
        });
        return htmlPage(reply, 200, page);
      }
      return finishLaunch(request, reply, result);
    },
  );

  app.post(
    LTI13_STORAGE_LAUNCH_PATH,
    {
      // The Origin is checked here, exactly, to answer with the launch's page rather than the API's JSON.
      ...formPost,
      schema: {
        tags: ['lti'],
        summary: 'LTI 1.3 launch whose login was kept in the platform’s storage (LTI Client Side postMessage)',
        description:
          'Posted by the tool’s own launch page (Origin = the tool’s) with id_token, state, and stored_state / stored_nonce as read back from the platform’s storage; they must be the login’s state signature and nonce, and the nonce is used once. Then as the launch: 302 into the product, the deep linking picker, or a 4xx page.',
        response: {
          200: textResponse('text/html', 'The deep linking picker'),
          302: emptyResponse('Into the product (APP_URL/lti?token=…), or back to the platform with lti_errormsg'),
          '4XX': textResponse('text/html', 'Why the launch was refused'),
        },
      },
    },
    async (request, reply) => {
      framable(reply);
      // Only the tool's launch page posts here: a post from anywhere else (another site, a sandboxed frame's null
      // origin) did not read the values from the platform's storage itself.
      if (request.headers.origin !== new URL(publicUrl(app.env)).origin) {
        request.log.info({ code: 'lti_storage_mismatch' }, 'lti 1.3 storage launch from another origin');
        return refusePage(reply, fail('lti_storage_mismatch'));
      }
      const form = firstValues(formPairs(request.body));
      const result = await completeLaunch(app.db, app.env, options.keySets, {
        idToken: form.id_token,
        state: form.state,
        cookies: {},
        stored: { state: form.stored_state, nonce: form.stored_nonce },
        ip: request.ip ?? null,
        userAgent: request.headers['user-agent'] ?? null,
      });
      return finishLaunch(request, reply, result);
    },
  );

  app.post(
    LTI13_DEEP_LINK_PATH,
    {
      // The picker's own form, possibly inside the platform's frame (whose sandbox may send Origin: null): the signed
      // context it carries is what proves the post comes from a verified deep linking request.
      ...formPost,
      schema: {
        tags: ['lti'],
        summary: 'Deep Linking 2.0: the teacher’s choice on the picker, answered with a signed LtiDeepLinkingResponse',
        description:
          'Form post of the picker (context, target = home | book, bookId). Valid: a page whose form posts the LtiDeepLinkingResponse (JWT) to the platform’s deep_link_return_url at once. A malformed book id: the picker again (400). A context that is not the tool’s or has expired: a 4xx HTML page.',
        response: {
          200: textResponse('text/html', 'The auto-submitted answer to the platform'),
          '4XX': textResponse('text/html', 'The picker again, or why the choice was refused'),
        },
      },
    },
    async (request, reply) => {
      const entries = formPairs(request.body);
      const field = (name: string) => entries.find(([n]) => n === name)?.[1];
      const choice = { target: field('target'), bookId: field('bookId') };
      const answer = await answerDeepLink(app.db, app.env, { context: field('context'), choice });
      if (answer.ok) {
        framable(reply, { formAction: null, script: AUTO_SUBMIT_SCRIPT_SOURCE });
        return htmlPage(reply, 200, deepLinkResponsePage(productName, answer.returnUrl, answer.jwt));
      }
      framable(reply, { formAction: "'self'" });
      if (answer.retry) {
        const context = field('context') ?? '';
        return htmlPage(reply, 400, deepLinkPickerPage({ productName, action: LTI13_DEEP_LINK_PATH, context, choice, error: answer.message }));
      }
      request.log.info({ code: answer.code }, 'lti deep linking choice refused');
      return refuse(reply, answer.status, answer.message, null);
    },
  );

  // LTI Dynamic Registration, in this plugin's scope: its confirmation is a form read by the parser above.
  registrationRoutes(app, formPost);

  app.get(
    LTI13_JWKS_PATH,
    { schema: { tags: ['lti'], summary: 'The tool’s public keys (JWKS) for LTI 1.3', response: { 200: ltiJwksSchema } } },
    async (_request, reply) => {
      // Platforms cache it; a rotated key appears within the hour, and the old one stays published for days.
      reply.header('cache-control', 'public, max-age=3600');
      return publicJwks(app.db);
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
