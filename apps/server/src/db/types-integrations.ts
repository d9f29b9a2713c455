import type { ColumnType, Generated } from 'kysely';
import type { Json, NullableTimestamp, Timestamp } from './column-types.js';

// The tables of the integrations with other systems (LTI 1.1 and 1.3, SCIM) and of 2-step verification; db/types.ts
// assembles them with the console's own tables into the one DB interface.

export interface LtiCredentialsTable {
  organisation_id: string;
  consumer_key: string;
  consumer_secret: string;
  created_at: Timestamp;
}

export interface LtiNoncesTable {
  consumer_key: string;
  nonce: string;
  created_at: Timestamp;
}

/** A learning platform's user id (per organisation) linked to the user it signed in. */
export interface LtiUsersTable {
  organisation_id: string;
  lti_user_id: string;
  user_id: string;
  created_at: Timestamp;
  last_launch_at: Timestamp;
  /** The e-mail the platform sent at the last launch: contact data, never proof of ownership. */
  contact_email: string | null;
}

/** A learning platform registered for LTI 1.3 by an organisation (docs/lti.md "LTI 1.3"). */
export interface LtiPlatformsTable {
  id: string;
  organisation_id: string;
  name: string;
  issuer: string;
  client_id: string;
  deployment_ids: string[];
  auth_endpoint: string;
  token_endpoint: string;
  jwks_url: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The tool's LTI 1.3 signing keys: the private key encrypted, the public one published (JWKS). */
export interface LtiToolKeysTable {
  kid: string;
  private_key: string;
  public_jwk: Json<Record<string, unknown>>;
  created_at: Timestamp;
  retired_at: NullableTimestamp;
}

/** When one set of credentials may next create an account (GCRA: docs/lti.md). */
export interface LtiAccountRatesTable {
  organisation_id: string;
  consumer_key: string;
  due_at: Timestamp;
}


export interface ScimTokensTable {
  id: string;
  organisation_id: string;
  token_hash: Buffer;
  /** The token's last four characters, to tell tokens apart. */
  hint: string;
  created_by_email: string | null;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

/** Attributes of a provisioned user that members has no column for. */
export interface ScimUserAttributes {
  givenName?: string;
  familyName?: string;
  formatted?: string;
  employeeNumber?: string;
  department?: string;
}

/** A member an identity provider manages over SCIM (migration 0021); the SCIM id is member_id. */
export interface ScimUsersTable {
  organisation_id: string;
  member_id: string;
  user_name: string;
  external_id: string | null;
  attributes: Json<ScimUserAttributes>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A group an identity provider manages over SCIM (migration 0022). */
export interface ScimGroupsTable {
  organisation_id: string;
  id: string;
  display_name: string;
  external_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A provisioned user's membership of a SCIM group (migration 0022). */
export interface ScimGroupMembersTable {
  organisation_id: string;
  group_id: string;
  member_id: string;
}

/** An admin a SCIM group of admins made, with the address granted (migration 0022). */
export interface ScimAdminGrantsTable {
  organisation_id: string;
  member_id: string;
  email: string;
  created_at: Timestamp;
}

export interface ScimLibraryManagerGrantsTable {
  organisation_id: string;
  member_id: string;
  created_at: Generated<Timestamp>;
}

/** One SCIM request, for the console's list of recent requests (migration 0021). */
export interface ScimRequestsTable {
  id: Generated<number>;
  organisation_id: string;
  token_id: string | null;
  at: Timestamp;
  method: string;
  operation: string;
  subject: string | null;
  status: number;
  outcome: string;
}

/** A person's authenticator-app secret (encrypted); confirmed_at null while enrolment awaits its first code. */
export interface TwoStepFactorsTable {
  user_id: string;
  totp_secret: string;
  created_at: Timestamp;
  confirmed_at: NullableTimestamp;
  /** The last time step whose code was accepted: a code of that step or before is refused (RFC 6238 5.2). */
  last_totp_step: ColumnType<string | null, number | string | null, number | string | null>;
}

/** Single-use recovery codes, as SHA-256 hashes. */
export interface TwoStepRecoveryCodesTable {
  user_id: string;
  code_hash: Buffer;
  created_at: Timestamp;
  used_at: NullableTimestamp;
}

/** Passkeys (WebAuthn credentials): the public key and the last signature counter, never a private key. */
export interface TwoStepPasskeysTable {
  credential_id: string;
  user_id: string;
  name: string;
  public_key: Buffer;
  counter: ColumnType<string, number | string | undefined, number | string>;
  transports: ColumnType<string[], string[] | undefined, string[]>;
  backed_up: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  last_used_at: NullableTimestamp;
}

/** WebAuthn challenges handed out, each used once before expires_at. */
export interface TwoStepPasskeyChallengesTable {
  challenge: string;
  purpose: 'register' | 'second-step' | 'sign-in';
  user_id: string | null;
  session_id: string | null;
  expires_at: Timestamp;
}

/** Browsers trusted for the second step (the SHA-256 of their cookie value). */
export interface TwoStepTrustedDevicesTable {
  token_hash: Buffer;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** A OneRoster CSV import (migration 0023): options, preview, the apply job's progress. */
export interface RosterImportsTable {
  id: string;
  organisation_id: string;
  status: string;
  file_name: string;
  version: string;
  mode: string;
  options: Json<unknown>;
  counts: Json<unknown>;
  preview: Json<unknown>;
  orgs: Json<unknown>;
  created_by_user_id: string | null;
  created_by_email: string;
  created_at: Timestamp;
  applied_at: NullableTimestamp;
  done: Generated<number>;
  total: Generated<number>;
}

/** A person of an import's file, as read (migration 0023). */
export interface RosterImportPeopleTable {
  organisation_id: string;
  import_id: string;
  n: number;
  line: number;
  sourced_id: string;
  active: boolean;
  email: string;
  given_name: string;
  family_name: string;
  role: string;
  org_sourced_ids: string[];
  has_error: Generated<boolean>;
}

/** An error of an import's file (migration 0023). */
export interface RosterImportErrorsTable {
  organisation_id: string;
  import_id: string;
  n: number;
  file: string;
  line: number | null;
  column_name: string | null;
  reason: string;
}

/** A OneRoster org matched to an organisation (migration 0023). */
export interface RosterOrgLinksTable {
  organisation_id: string;
  sourced_id: string;
  target_organisation_id: string;
}

/** A member a OneRoster import manages, by sourcedId (migration 0023). */
export interface RosterMembersTable {
  organisation_id: string;
  sourced_id: string;
  member_organisation_id: string;
  member_id: string;
  role: string;
  console_admin: Generated<boolean>;
  import_id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}
