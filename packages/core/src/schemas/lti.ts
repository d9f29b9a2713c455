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
});
export type LtiCredentials = z.infer<typeof ltiCredentialsSchema>;
