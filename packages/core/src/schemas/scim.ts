import { z } from 'zod';
import { idSchema } from './common.js';

/**
 * Automatic provisioning (SCIM 2.0): the console's calls for an organisation's SCIM tokens and its recent SCIM
 * requests (docs/provisioning.md). The SCIM endpoint itself speaks RFC 7643/7644 JSON, not these schemas.
 */

/** Where the SCIM endpoint lives under PUBLIC_URL; the organisation comes from the token. */
export const SCIM_BASE_PATH = '/scim/v2';
/** Tokens an organisation may hold at once (enough to rotate one without downtime, and one per provider). */
export const SCIM_MAX_TOKENS = 10;
/** The console lists this many of the organisation's latest SCIM requests. */
export const SCIM_REQUEST_LOG_SIZE = 50;

/** A token as the console lists it: never the token itself, only its last four characters. */
const scimTokenSchema = z.object({
  id: z.string(),
  /** The token's last four characters. */
  hint: z.string(),
  /** ISO date and time. */
  createdAt: z.string(),
  /** The admin who generated it. */
  createdBy: z.string().nullable(),
  /** ISO date and time of the last request made with it (to the half minute), or null. */
  lastUsedAt: z.string().nullable(),
});
export type ScimToken = z.infer<typeof scimTokenSchema>;

/** The Provisioning (SCIM) section: the base URL to give the provider and the organisation's live tokens, newest first. */
export const scimSetupSchema = z.object({
  baseUrl: z.string(),
  tokens: z.array(scimTokenSchema),
  /** The displayNames (compared without case) of the groups whose members become admins and library managers. */
  groups: z.object({ admins: z.string(), libraryManagers: z.string() }),
});
export type ScimSetup = z.infer<typeof scimSetupSchema>;

/** A token just generated: the only answer that ever carries the token. */
export const generatedScimTokenSchema = scimTokenSchema.extend({
  /** The bearer token, shown once. */
  token: z.string(),
});
export type GeneratedScimToken = z.infer<typeof generatedScimTokenSchema>;

/** One SCIM request as the console lists it. */
const scimRequestSchema = z.object({
  /** ISO date and time. */
  at: z.string(),
  method: z.string(),
  /** What was asked: 'Create user', 'List users', 'Update user'… */
  operation: z.string(),
  /** The user it was about (userName or id), when there is one. */
  user: z.string().nullable(),
  status: z.number().int(),
  /** 'OK', or the SCIM error type and detail. */
  outcome: z.string(),
});

export const scimRequestsSchema = z.object({ requests: z.array(scimRequestSchema) });
export type ScimRequests = z.infer<typeof scimRequestsSchema>;

/** `{orgId}/scim/tokens/{tokenId}` in a path. */
export const scimTokenParamsSchema = z.object({ orgId: idSchema, tokenId: idSchema });
