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
