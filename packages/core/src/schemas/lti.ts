import { z } from 'zod';

/**
 * LTI 1.1 credentials of an organisation (spec §3 "LMS credentials"), as
 * getOrganisationById { lti { … } } and the generate / revoke mutations answer them.
 */

/** The fixed segment the launch URL ends in. */
export const LTI_LAUNCH_PATH = '/lti/launch';
/** The LTI cartridge (XML configuration) beside it. */
export const LTI_CARTRIDGE_PATH = '/lti/cartridge.xml';
/** Privacy the launch asks the learning platform for (the table's 'Privacy' row). */
export const LTI_PRIVACY_TEXT = 'Public - send name and email';
/** The table's 'Open in a new tab' row. */
export const LTI_NEW_TAB_TEXT = 'Yes';
/** A launch's timestamp may differ from the server's clock by at most this many seconds. */
export const LTI_TIMESTAMP_TOLERANCE_SECONDS = 300;
/**
 * The domain of the addresses of accounts that launches create (RFC 2606 reserves `.invalid`): such an account
 * holds no real address, so nobody can register, reset, verify or sign in to it by e-mail (docs/lti.md).
 */
export const LTI_ACCOUNT_DOMAIN = 'lti.invalid';

/** The LMS Integration page's line on what the integration has done: how many accounts its launches made. */
export function ltiUsersCreatedText(count: number): string {
  if (count === 0) return 'No one has opened this organisation from a learning platform yet.';
  const n = count.toLocaleString('en-US');
  return count === 1
    ? '1 person has an account made by launches from your learning platform.'
    : `${n} people have accounts made by launches from your learning platform.`;
}

export const ltiCredentialsSchema = z.object({
  /** null when not generated. */
  consumerKey: z.string().nullable(),
  /** null when not generated. Only the organisation's admins receive it. */
  consumerSecret: z.string().nullable(),
  /** Where a learning platform posts launches: ends in /lti/launch. */
  launchUrl: z.string(),
  /** The launch host's domain. */
  domain: z.string(),
  /** The cartridge (XML configuration) URL. */
  cartridgeUrl: z.string(),
  /** How many people launches from a learning platform have created accounts for in the organisation. */
  usersCreated: z.number().int().nonnegative(),
});
export type LtiCredentials = z.infer<typeof ltiCredentialsSchema>;

/** LTI 1.3 (docs/lti.md "LTI 1.3"): where a platform starts the OpenID Connect login (GET or POST). */
export const LTI13_LOGIN_PATH = '/lti/1.3/login';
/** The redirect URI and target link URI: where the platform posts the id_token. */
export const LTI13_LAUNCH_PATH = '/lti/1.3/launch';
/**
 * Where the tool's launch page posts a launch whose state and nonce were kept in the platform's storage (LTI Client
 * Side postMessage) instead of a cookie, with the values it read back from there.
 */
export const LTI13_STORAGE_LAUNCH_PATH = '/lti/1.3/launch/storage';
/** The tool's public keys (JSON Web Key Set). */
export const LTI13_JWKS_PATH = '/lti/1.3/jwks';
/** The tool's JWKS: its public keys (RFC 7517), the current one first, as platforms read them. */
export const ltiJwksSchema = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });

/** Where the deep linking picker posts the teacher's choice (docs/lti.md "Deep Linking 2.0"). */
export const LTI13_DEEP_LINK_PATH = '/lti/1.3/deep-link';

/** A book's id as a link names it: what the product's book ids are made of, at most 128 characters. */
const ltiBookIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9._-]+$/);

/**
 * What a link made by deep linking opens: the product's home page, or a book by its id. The picker's form posts it,
 * and the link carries it as its custom parameter `target` (`home` or `book:<id>`, `ltiTargetValue`).
 */
export const ltiDeepLinkChoiceSchema = z.discriminatedUnion('target', [
  z.object({ target: z.literal('home') }),
  z.object({ target: z.literal('book'), bookId: ltiBookIdSchema }),
]);
export type LtiDeepLinkChoice = z.infer<typeof ltiDeepLinkChoiceSchema>;

/** The custom parameter value of a link that opens `choice`. */
export function ltiTargetValue(choice: LtiDeepLinkChoice): string {
  return choice.target === 'home' ? 'home' : `book:${choice.bookId}`;
}

/** The target a launch's custom parameter names; null when it names none this tool knows (the launch opens home). */
export function parseLtiTarget(value: unknown): LtiDeepLinkChoice | null {
  if (value === 'home') return { target: 'home' };
  if (typeof value !== 'string' || !value.startsWith('book:')) return null;
  const parsed = ltiDeepLinkChoiceSchema.safeParse({ target: 'book', bookId: value.slice('book:'.length) });
  return parsed.success ? parsed.data : null;
}

const httpUrl = z.url({ protocol: /^https?$/ });
const platformText = (max: number) => z.string().trim().min(1).max(max);
const platformUrl = z
  .string()
  .trim()
  .max(2000)
  // zod's URL check (WHATWG parsing where the runtime has it) limited to http(s); core names no runtime's globals.
  .refine((v) => httpUrl.safeParse(v).success, 'must be an https URL');

/** What an admin enters for one learning platform (create and edit). */
export const ltiPlatformInputSchema = z.object({
  /** How the admin calls it on the LMS Integration page ("Canvas"). */
  name: platformText(120),
  /** The platform's issuer (`iss` of its id_tokens), e.g. https://canvas.instructure.com. */
  issuer: platformUrl,
  /** The client id the platform gave the tool. */
  clientId: platformText(255),
  /** Where the tool is installed in the platform: one or more deployment ids. */
  deploymentIds: z.array(platformText(255)).min(1).max(50),
  /** The platform's OIDC authorisation endpoint (the login's redirect goes there). */
  authEndpoint: platformUrl,
  /** The platform's OAuth 2 access-token endpoint. */
  tokenEndpoint: platformUrl,
  /** The platform's public keys (JWKS URL). */
  jwksUrl: platformUrl,
});
export type LtiPlatformInput = z.infer<typeof ltiPlatformInputSchema>;

export const ltiPlatformSchema = ltiPlatformInputSchema.extend({ id: z.string() });
export type LtiPlatform = z.infer<typeof ltiPlatformSchema>;

/** The LTI 1.3 part of the LMS Integration page: the tool's values to paste into the platform, and the platforms. */
export const ltiAdvantageSchema = z.object({
  /** OIDC login initiation URL. */
  loginUrl: z.string(),
  /** Redirect URI and target link URI. */
  launchUrl: z.string(),
  /** The tool's public JWKS URL. */
  jwksUrl: z.string(),
  /** The tool's domain (some platforms ask for it). */
  domain: z.string(),
  platforms: z.array(ltiPlatformSchema),
});
export type LtiAdvantage = z.infer<typeof ltiAdvantageSchema>;

export const ltiPlatformParamsSchema = z.object({ orgId: z.string().min(1).max(200), platformId: z.string().min(1).max(200) });
export const ltiOrganisationParamsSchema = z.object({ orgId: z.string().min(1).max(200) });

/**
 * LTI Dynamic Registration (docs/lti.md "Dynamic registration"): the page a platform opens with `openid_configuration`
 * and `registration_token`; the admin's registration address is this path with the signed `t` beside them.
 */
export const LTI13_REGISTER_PATH = '/lti/1.3/register';

/** A registration address for one organisation and admin: single use, until `expiresAt`. */
export const ltiRegistrationLinkSchema = z.object({
  /** PUBLIC_URL/lti/1.3/register?t=…: pasted into the platform as the tool's registration URL. */
  url: z.string(),
  /** When it stops working (ISO 8601). */
  expiresAt: z.string(),
});
export type LtiRegistrationLink = z.infer<typeof ltiRegistrationLinkSchema>;

const LTI_PLATFORM_CONFIGURATION_CLAIM = 'https://purl.imsglobal.org/spec/lti-platform-configuration';
const LTI_TOOL_CONFIGURATION_CLAIM = 'https://purl.imsglobal.org/spec/lti-tool-configuration';
const remoteUrl = z.string().min(1).max(2000);

/**
 * A platform's OpenID configuration as Dynamic Registration reads it (LTI Dynamic Registration 1.0 §3.4, OpenID
 * Connect Discovery): the endpoints the tool registers with and launches through; other fields are the platform's.
 */
export const ltiPlatformConfigurationSchema = z.looseObject({
  issuer: remoteUrl,
  authorization_endpoint: remoteUrl,
  token_endpoint: remoteUrl,
  jwks_uri: remoteUrl,
  registration_endpoint: remoteUrl,
  [LTI_PLATFORM_CONFIGURATION_CLAIM]: z
    .looseObject({
      product_family_code: z.string().max(200).optional(),
      version: z.string().max(200).optional(),
    })
    .optional(),
});
export type LtiPlatformConfiguration = z.infer<typeof ltiPlatformConfigurationSchema>;

/** The platform's answer to the tool's registration (§3.6): the client id it gave, and the deployment it made. */
export const ltiToolRegistrationResponseSchema = z.looseObject({
  client_id: z.string().trim().min(1).max(255),
  [LTI_TOOL_CONFIGURATION_CLAIM]: z.looseObject({ deployment_id: z.string().trim().min(1).max(255).optional() }).optional(),
});
