import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { emailSchema, errorCatalogue, LTI_ACCOUNT_DOMAIN, LTI_TIMESTAMP_TOLERANCE_SECONDS, type AppUserKind, type ErrorCode } from '@quire/core';
import type { DB } from '../../db/types.js';
import type { Env } from '../../env.js';
import { recordAudit } from '../access/audit.js';
import { isListedAdmin } from '../access/org-access.js';
import { vaultFor } from './lti-crypto.js';
import { findCredentialsByKey } from './lti-credentials.repository.js';
import * as repo from './lti-launch.repository.js';
import { SIGNATURE_METHODS, verifySignature, type SignatureMethod } from './oauth-signature.js';
import { userKindFromRoles } from './lti-roles.js';

/** The error catalogue's reasons for refusing a launch. */
type LaunchRefusalCode = Extract<ErrorCode, `lti_${string}`>;

export type LaunchResult =
  | { ok: true; userId: string; organisationId: string; kind: AppUserKind; provisioned: boolean }
  | {
      ok: false;
      status: number;
      code: LaunchRefusalCode;
      message: string;
      /** The platform's signature was verified: only then may the refusal go back to launch_presentation_return_url. */
      signed: boolean;
    };

export interface LaunchRequest {
  method: string;
  /** Candidate URLs the platform may have signed: the public launch URL, and the URL the request reached. */
  urls: string[];
  /** The launch reached another spelling of the launch URL (a trailing slash, another case): refused once signed. */
  misspelledUrl?: boolean;
  /** Body and query parameters, in order, duplicates kept. */
  params: Array<[string, string]>;
  ip: string | null;
  userAgent: string | null;
  /** Now, in seconds (tests move the clock through the timestamp they sign instead). */
  nowSeconds?: number;
}

/** The prefix of an LTI 1.3 platform user's key in lti_users (lti-advantage.service.ts). */
export const LTI13_USER_PREFIX = 'lti1p3:';

/** Thrown inside the provisioning transaction so nothing of a refused launch is written. */
class LaunchRefused extends Error {
  constructor(readonly result: LaunchResult) {
    super('launch refused');
  }
}

/** A launch refused for one of the catalogue's LTI reasons, with its status and message. */
export const fail = (code: LaunchRefusalCode, signed = false): LaunchResult & { ok: false } => {
  const { status, message } = errorCatalogue[code];
  return { ok: false, status, code, message, signed };
};
const signedFail = (code: LaunchRefusalCode): LaunchResult => fail(code, true);

const MAX_FIELD = 1024;

function first(params: ReadonlyArray<readonly [string, string]>, name: string): string | undefined {
  const value = params.find(([n]) => n === name)?.[1]?.trim();
  return value ? value.slice(0, MAX_FIELD) : undefined;
}

/** Checks the message fields of an LTI 1.1 basic launch (the 1EdTech certification's invalid launches). */
function checkMessage(params: ReadonlyArray<readonly [string, string]>, signed = false): LaunchResult | null {
  if (first(params, 'lti_message_type') !== 'basic-lti-launch-request') return fail('lti_message_type', signed);
  if (first(params, 'lti_version') !== 'LTI-1p0') return fail('lti_version', signed);
  if (!first(params, 'resource_link_id')) return fail('lti_resource_link_id', signed);
  return null;
}

/**
 * An LTI 1.1 launch (docs/lti.md): OAuth 1.0a signature (HMAC-SHA1 or -SHA256, constant-time), timestamp within
 * ±300 s, nonce unused (kept in the database), message checks, then the platform user's own account is found or
 * created in the credentials' organisation, and the launch recorded in the access log and the audit trail.
 * Until the signature is verified nothing the launch says is used, its return URL included (`signed: false`).
 */
export async function verifyAndProvision(db: Kysely<DB>, env: Env, launch: LaunchRequest): Promise<LaunchResult> {
  const { params } = launch;
  // RFC 5849 §3.1: an OAuth parameter appears once. Which of two nonces or keys would count is anybody's guess.
  const oauthNames = params.filter(([n]) => n.startsWith('oauth_')).map(([n]) => n);
  if (new Set(oauthNames).size !== oauthNames.length) return fail('lti_repeated_oauth');
  const consumerKey = first(params, 'oauth_consumer_key');
  const signatureMethod = first(params, 'oauth_signature_method');
  const signature = params.find(([n]) => n === 'oauth_signature')?.[1];
  const timestamp = first(params, 'oauth_timestamp');
  const nonce = first(params, 'oauth_nonce');
  const version = first(params, 'oauth_version');
  if (
    !consumerKey || !signature || !timestamp || !nonce || nonce.length > 255 ||
    !SIGNATURE_METHODS.includes(signatureMethod as SignatureMethod) || (version !== undefined && version !== '1.0')
  ) {
    // An unsigned request that is not even a launch says so; either way nothing of it is trusted.
    return (launch.misspelledUrl ? fail('lti_launch_url') : null) ?? checkMessage(params) ?? fail('lti_not_signed');
  }

  const credentials = await findCredentialsByKey(db, consumerKey);
  if (!credentials) return fail('lti_unknown_key');
  const secret = vaultFor(env).decrypt(credentials.consumer_secret, { organisationId: credentials.organisation_id, consumerKey });
  if (secret === null) return fail('lti_unknown_key');
  const valid = verifySignature({ method: launch.method, urls: launch.urls, params, signatureMethod: signatureMethod as SignatureMethod, signature, consumerSecret: secret });
  if (!valid) return fail('lti_signature');

  // Signed by the platform from here on: a refusal may go back to the platform's return URL.
  if (launch.misspelledUrl) return signedFail('lti_launch_url');
  const now = launch.nowSeconds ?? Math.floor(Date.now() / 1000);
  const signedAt = /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : NaN;
  if (!Number.isFinite(signedAt) || Math.abs(now - signedAt) > LTI_TIMESTAMP_TOLERANCE_SECONDS) return signedFail('lti_timestamp');
  if (!(await repo.claimNonce(db, consumerKey, nonce))) return signedFail('lti_replay');
  const messageProblem = checkMessage(params, true);
  if (messageProblem) return messageProblem;

  const ltiUserId = first(params, 'user_id');
  // The LTI 1.3 users' keys are theirs alone: a 1.1 user_id cannot name one of them.
  if (!ltiUserId || ltiUserId.startsWith(LTI13_USER_PREFIX)) return signedFail('lti_no_user');
  const roles = first(params, 'roles');
  const kind = userKindFromRoles(roles);
  const rawEmail = first(params, 'lis_person_contact_email_primary');
  const parsedEmail = rawEmail ? emailSchema.safeParse(rawEmail) : undefined;
  const contactEmail = parsedEmail?.success ? parsedEmail.data : undefined;
  const name =
    first(params, 'lis_person_name_full') ??
    ([first(params, 'lis_person_name_given'), first(params, 'lis_person_name_family')].filter(Boolean).join(' ') || (kind === 'teacher' ? 'Teacher' : 'Student'));
  const organisationId = credentials.organisation_id;
  return provisionLaunchUser(db, env, {
    organisationId,
    ltiUserId,
    contactEmail,
    name,
    kind,
    roles,
    consumerKey,
    signatureMethod: signatureMethod as SignatureMethod,
    details: {
      resourceLinkId: first(params, 'resource_link_id'),
      contextId: first(params, 'context_id') ?? null,
      toolConsumerInstanceGuid: first(params, 'tool_consumer_instance_guid') ?? null,
    },
    launch,
  });
}

/**
 * The launch's user found or created, signed-in token aside (LTI 1.1 and 1.3 alike): see provisionUser. A refusal for
 * too many new accounts is written to the audit trail outside the rolled-back transaction.
 */
export async function provisionLaunchUser(db: Kysely<DB>, env: Env, input: ProvisionInput): Promise<LaunchResult> {
  const { organisationId, consumerKey, name, contactEmail, launch } = input;
  try {
    return await provisionUser(db, env, input);
  } catch (error) {
    if (!(error instanceof LaunchRefused)) throw error;
    if (error.result.ok === false && error.result.code === 'lti_too_many_accounts') {
      // Recorded outside the rolled-back transaction: the admin sees that the integration was held back.
      await recordAudit(db, { kind: 'lti_platform', id: null, name, email: contactEmail ?? null }, {
        organisationId,
        action: 'lti.provisioning_refused',
        targetType: 'lti_credentials',
        targetIds: [consumerKey],
        outcome: 'refused',
        errorCode: 'lti_too_many_accounts',
        client: { ip: launch.ip, userAgent: launch.userAgent?.slice(0, 512) ?? null },
        details: { consumerKey, burst: env.LTI_NEW_USERS_BURST, perHour: env.LTI_NEW_USERS_PER_HOUR },
      });
    }
    return error.result;
  }
}

/** The address of the account a launch creates: its own, under the reserved `lti.invalid` domain (RFC 2606). */
function launchAccountEmail(organisationId: string, ltiUserId: string): string {
  return `lti-${createHash('sha256').update(`${organisationId}\u0000${ltiUserId}`).digest('hex').slice(0, 32)}@${LTI_ACCOUNT_DOMAIN}`;
}

export interface ProvisionInput {
  organisationId: string;
  /** The platform's user id, unique in the organisation (LTI 1.3: the platform's id and `sub`). */
  ltiUserId: string;
  /** The address the platform sent: contact data, never proof of who the person is. */
  contactEmail: string | undefined;
  name: string;
  kind: AppUserKind;
  roles: string | undefined;
  /** LTI 1.1: the consumer key; LTI 1.3: the platform's client id (the allowance of new accounts is counted per value). */
  consumerKey: string;
  /** HMAC-SHA1 / HMAC-SHA256, or the id_token's JWS algorithm. */
  signatureMethod: string;
  /** What the audit entry records of the launch. */
  details: { resourceLinkId: string | undefined; contextId: string | null; toolConsumerInstanceGuid: string | null };
  launch: Pick<LaunchRequest, 'ip' | 'userAgent'>;
}

const refuse = (code: LaunchRefusalCode): never => {
  throw new LaunchRefused(signedFail(code));
};

/**
 * Finds the platform user's account, or creates one of its own, and its membership; records the launch.
 * The identity is (organisation, user_id) alone: no e-mail is matched to an account or a member, so a launch
 * never signs in as, or attaches to, an account someone else signs in to. Refusals roll everything back.
 */
async function provisionUser(db: Kysely<DB>, env: Env, input: ProvisionInput): Promise<LaunchResult> {
  const { organisationId, ltiUserId, contactEmail, name, kind, roles, consumerKey, signatureMethod, details, launch } = input;
  return db.transaction().execute(async (trx): Promise<LaunchResult> => {
    await repo.lockPlatformUser(trx, organisationId, ltiUserId);
    const linked = await repo.findLinkedUser(trx, organisationId, ltiUserId);
    let provisioned = false;
    let user: { id: string; email: string; name: string };
    if (linked) {
      // A link to an account with a password or a provider of its own (made before this rule) is never followed.
      if (linked.has_own_sign_in || !linked.email.endsWith(`@${LTI_ACCOUNT_DOMAIN}`)) refuse('lti_account_has_own_sign_in');
      user = linked;
    } else {
      const rate = ltiAccountRate(env);
      if (!(await repo.takeAccountAllowance(trx, { organisationId, consumerKey }, rate))) refuse('lti_too_many_accounts');
      user = await repo.insertUser(trx, { email: launchAccountEmail(organisationId, ltiUserId), name: name.slice(0, 200) });
      provisioned = true;
    }
    const providerDomain = env.PROVIDER_EMAIL_DOMAIN.toLowerCase();
    if (user.email.toLowerCase().endsWith(`@${providerDomain}`) || (await isListedAdmin(trx, { userId: user.id, email: user.email }))) {
      refuse('lti_admin_account');
    }
    await repo.linkUser(trx, organisationId, ltiUserId, user.id, contactEmail);

    const member = await repo.findMember(trx, organisationId, user.id);
    if (member?.revoked_at) refuse('lti_member_removed');
    let memberKind: AppUserKind = kind;
    if (!member) {
      await repo.insertMember(trx, organisationId, { userId: user.id, email: user.email, displayName: name.slice(0, 200), isStudent: kind === 'student' });
      provisioned = true;
    } else {
      // An existing member keeps their role: a launch never promotes a student or demotes a teacher.
      memberKind = member.is_student ? 'student' : 'teacher';
    }

    // The platform acted for its user: the entry names the user, as a learning platform's.
    const actor = { kind: 'lti_platform' as const, id: user.id, email: user.email, name: user.name };
    await trx.insertInto('access_log').values({ user_id: user.id, event: 'lti-launch', ip: launch.ip, user_agent: launch.userAgent?.slice(0, 512) ?? null }).execute();
    await recordAudit(trx, actor, {
      organisationId,
      action: 'lti.launch',
      targets: [{ type: 'user', id: user.id, label: user.email }],
      client: { ip: launch.ip, userAgent: launch.userAgent?.slice(0, 512) ?? null },
      newValue: provisioned ? { account: `Created (${memberKind})` } : undefined,
      details: {
        consumerKey,
        signatureMethod,
        resourceLinkId: details.resourceLinkId,
        contextId: details.contextId,
        toolConsumerInstanceGuid: details.toolConsumerInstanceGuid,
        roles: roles ?? null,
        kind: memberKind,
        provisioned,
      },
    });
    return { ok: true, userId: user.id, organisationId, kind: memberKind, provisioned };
  });
}

/** The credentials' allowance of new accounts (GCRA): one every 3600/perHour s, a burst of `burst` at once. */
function ltiAccountRate(env: Pick<Env, 'LTI_NEW_USERS_BURST' | 'LTI_NEW_USERS_PER_HOUR'>): { intervalMs: number; toleranceMs: number } {
  const intervalMs = 3_600_000 / env.LTI_NEW_USERS_PER_HOUR;
  return { intervalMs, toleranceMs: intervalMs * (env.LTI_NEW_USERS_BURST - 1) };
}
