import type { ColumnType, Generated } from 'kysely';

/** Kysely's view of the schema in migrations/. Columns are snake_case; presenters map them to the API's camelCase. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T> = ColumnType<T, T | string | undefined, T | string>;

export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: Generated<boolean>;
  image: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

interface SessionTable {
  id: string;
  expiresAt: Timestamp;
  token: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  ipAddress: string | null;
  userAgent: string | null;
  userId: string;
  /** How the session passed its second step (migration 0018); null when none was needed or it is pending. */
  twoStepMethod: string | null;
}

export interface AccountTable {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: NullableTimestamp;
  refreshTokenExpiresAt: NullableTimestamp;
  scope: string | null;
  password: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

interface VerificationTable {
  id: string;
  identifier: string;
  value: string;
  expiresAt: Timestamp;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/**
 * The organisation's own settings. Per app: unset (follows a district default, else teachers and students), 1 (teachers
 * only), -1 (disabled for everyone), 0 (teachers and students, chosen against a district default). imageSearch unset
 * follows a district default, else Google.
 */
export interface OrganisationSettings {
  apps: Record<string, 1 | -1 | 0>;
  imageSearch?: 'pixabay' | 'google';
}

/** An organisation's policies for the organisations below it (absent: let schools decide). */
export interface StoredSettingPolicies {
  apps?: Record<string, { mode: 'locked' | 'default'; value: 1 | -1 | 0 }>;
  imageSearch?: { mode: 'locked' | 'default'; value: 'pixabay' | 'google' };
}

export interface OrganisationsTable {
  id: string;
  name: string;
  is_domain: Generated<boolean>;
  org_libraries: Generated<boolean>;
  student_portfolios: Generated<boolean>;
  visit_libraries: Generated<boolean>;
  settings: Json<OrganisationSettings>;
  /** Policies for the organisations below (docs/settings.md "Districts"). */
  setting_policies: Json<StoredSettingPolicies>;
  /** The organisation above this one (a district over its schools), or null. */
  parent_id: string | null;
  /** Days its audit entries are kept (90 to 2555; docs/audit-log.md "Retention"). */
  audit_retention_days: Generated<number>;
  /** Its admins (and those of the organisations below) must use 2-step verification (migration 0018). */
  require_two_step_admins: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The closure of organisations.parent_id: each organisation with itself (depth 0) and every one above it. */
interface OrganisationAncestorsTable {
  organisation_id: string;
  ancestor_id: string;
  depth: number;
}

export interface LicensesTable {
  id: string;
  organisation_id: string;
  name: Generated<string>;
  quantity: number;
  book_quota: number;
  /** null means UNLIMITED. */
  library_quota: number | null;
  apply_to_all: Generated<boolean>;
  created_at: Timestamp;
  /** A school's share of a district licence: the district (docs/districts.md). */
  allocated_from_organisation_id: string | null;
  /** A school's share of a district licence: the district's licence; quantity is the seats allocated. */
  allocated_from_license_id: string | null;
}

interface MembersTable {
  id: string;
  organisation_id: string;
  user_id: string | null;
  /** Always lower-case. */
  email: string;
  display_name: Generated<string>;
  /** -600 pending teacher, 400 library manager, 600 teacher. */
  role: Generated<number>;
  license_id: string | null;
  /** Not yet signed up. */
  pending: Generated<boolean>;
  calevel1_at: NullableTimestamp;
  calevel2_at: NullableTimestamp;
  /** Certification progress, 0..1. */
  certifying: number | null;
  is_ambassador: Generated<boolean>;
  is_student: Generated<boolean>;
  /** Provider staff visiting for support: a member for the library's sake, never one of the school's teachers. */
  is_provider_staff: Generated<boolean>;
  /** Set when the teacher was removed (Inactive tab). */
  revoked_at: NullableTimestamp;
  signed_up_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AdminsTable {
  organisation_id: string;
  email: string;
  user_id: string | null;
  created_at: Timestamp;
}

interface LibrariesTable {
  id: string;
  organisation_id: string;
  owner_member_id: string;
  name: string;
  is_private: Generated<boolean>;
  archived_at: NullableTimestamp;
  created_at: Timestamp;
}

interface LibraryMembershipsTable {
  organisation_id: string;
  library_id: string;
  member_id: string;
  role: number;
  joined_at: Timestamp;
}

interface BooksTable {
  id: string;
  organisation_id: string;
  library_id: string;
  author_member_id: string | null;
  title: string;
  shape: Generated<'landscape' | 'square' | 'portrait'>;
  published: Generated<boolean>;
  created_at: Timestamp;
}

export interface LtiCredentialsTable {
  organisation_id: string;
  consumer_key: string;
  consumer_secret: string;
  created_at: Timestamp;
}

interface LtiNoncesTable {
  consumer_key: string;
  nonce: string;
  created_at: Timestamp;
}

/** A learning platform's user id (per organisation) linked to the user it signed in. */
interface LtiUsersTable {
  organisation_id: string;
  lti_user_id: string;
  user_id: string;
  created_at: Timestamp;
  last_launch_at: Timestamp;
  /** The e-mail the platform sent at the last launch: contact data, never proof of ownership. */
  contact_email: string | null;
}

/** A learning platform registered for LTI 1.3 by an organisation (docs/lti.md "LTI 1.3"). */
interface LtiPlatformsTable {
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
interface LtiToolKeysTable {
  kid: string;
  private_key: string;
  public_jwk: Json<Record<string, unknown>>;
  created_at: Timestamp;
  retired_at: NullableTimestamp;
}

/** When one set of credentials may next create an account (GCRA: docs/lti.md). */
interface LtiAccountRatesTable {
  organisation_id: string;
  consumer_key: string;
  due_at: Timestamp;
}

interface AnalyticsEventsTable {
  id: Generated<number>;
  /** The product's own id of the event; unique per organisation (intake is idempotent by it). */
  event_id: string;
  organisation_id: string;
  occurred_at: Timestamp;
  user_id: string | null;
  user_kind: 'student' | 'teacher';
  os: string;
  provider: string;
  email_domain: string | null;
  duration_seconds: Generated<number>;
}

interface AnalyticsDailyTable {
  organisation_id: string;
  metric: string;
  day: ColumnType<Date, Date | string, Date | string>;
  name: Generated<string>;
  students: Generated<number>;
  teachers: Generated<number>;
  total: Generated<number>;
}

/** Users an organisation has seen in session events (the students count). */
interface AnalyticsUsersTable {
  organisation_id: string;
  user_kind: 'student' | 'teacher';
  user_id: string;
  first_seen_at: Timestamp;
}

interface PortfolioExportsTable {
  id: string;
  organisation_id: string;
  generated_at: Timestamp;
  row_count: Generated<number>;
  /** 'building' while its chunks are written (never visible); 'ready' once published. */
  status: Generated<'building' | 'ready'>;
  byte_size: Generated<number>;
  chunk_count: Generated<number>;
}

/** One piece (~1 MB) of an export's CSV, in order of seq. */
interface PortfolioExportChunksTable {
  organisation_id: string;
  export_id: string;
  seq: number;
  data: Buffer;
}

export interface StudentsTable {
  id: string;
  organisation_id: string;
  student_number: string | null;
  display_name: string;
  email: string | null;
  grade: string | null;
  school_year: string | null;
  created_at: Timestamp;
}

/** A book a student published to their portfolio. */
export interface PortfolioItemsTable {
  id: string;
  organisation_id: string;
  student_id: string;
  book_id: string | null;
  book_title: string;
  page_count: Generated<number>;
  created_at: Timestamp;
  published_at: Timestamp;
  teacher_member_id: string | null;
  teacher_name: string | null;
  teacher_email: string | null;
  class_name: string | null;
  book_url: string | null;
}

/** The example books of Teacher Resources and their cover images. */
interface FeaturedBooksTable {
  book_id: string;
  owner_user_id: string;
  title: string;
  shape: 'landscape' | 'square' | 'portrait';
  position: number;
  cover: Buffer | null;
  cover_type: string | null;
  updated_at: Timestamp;
}

/** Avatars as served: the user's picture decoded and scaled once (modules/assets/avatar-image.ts). */
interface AvatarImagesTable {
  user_id: string;
  /** SHA-256 of the user.image text it was made from. */
  source_hash: Buffer;
  body: Buffer;
  content_type: string;
  etag: string;
  created_at: Timestamp;
}

export interface MailOutboxTable {
  id: string;
  organisation_id: string | null;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  status: Generated<'queued' | 'sent' | 'failed' | 'logged'>;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: Timestamp;
  sent_at: NullableTimestamp;
}

/** A target of an audit entry: its display text as it was when the entry was written. */
export interface AuditTargetRow {
  type: string;
  id: string;
  label: string | null;
}

interface AuditEventsTable {
  id: Generated<number>;
  organisation_id: string | null;
  actor_user_id: string | null;
  actor_email: string | null;
  action: string;
  target_type: string | null;
  target_ids: ColumnType<string[], string[] | undefined, string[]>;
  details: Json<Record<string, unknown>>;
  reason: string | null;
  created_at: Timestamp;
  actor_name: string | null;
  actor_kind: Generated<'user' | 'provider_staff' | 'lti_platform' | 'job'>;
  targets: ColumnType<AuditTargetRow[], string | undefined, string>;
  old_value: ColumnType<unknown | null, string | null | undefined, string | null>;
  new_value: ColumnType<unknown | null, string | null | undefined, string | null>;
  ip: string | null;
  user_agent: string | null;
  outcome: Generated<'success' | 'refused'>;
  error_code: string | null;
}

interface AccessLogTable {
  id: Generated<number>;
  user_id: string;
  event: string;
  ip: string | null;
  user_agent: string | null;
  created_at: Timestamp;
}

interface RateLimitsTable {
  key: string;
  hits: number;
  window_start: Timestamp;
}

/** Idempotency-Key of an action, per user, remembered until expires_at. */
interface IdempotencyKeysTable {
  actor_user_id: string;
  key: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** Teachers per organisation, removed, pending and licence ('' = none); kept by triggers on members (migration 0010). */
interface MemberCountsTable {
  organisation_id: string;
  revoked: boolean;
  pending: boolean;
  license_id: string;
  teachers: number;
}

/** A version per organisation of its Teachers list (migration 0014), bumped by every write to its members. @internal */
export interface MemberListVersionsTable {
  organisation_id: string;
  version: number;
}

/** A SCIM bearer token (migration 0021): only its SHA-256 is kept. */
interface ScimTokensTable {
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
interface ScimUsersTable {
  organisation_id: string;
  member_id: string;
  user_name: string;
  external_id: string | null;
  attributes: Json<ScimUserAttributes>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A group an identity provider manages over SCIM (migration 0022). */
interface ScimGroupsTable {
  organisation_id: string;
  id: string;
  display_name: string;
  external_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A provisioned user's membership of a SCIM group (migration 0022). */
interface ScimGroupMembersTable {
  organisation_id: string;
  group_id: string;
  member_id: string;
}

/** An admin a SCIM group of admins made, with the address granted (migration 0022). */
interface ScimAdminGrantsTable {
  organisation_id: string;
  member_id: string;
  email: string;
  created_at: Timestamp;
}

/** One SCIM request, for the console's list of recent requests (migration 0021). */
interface ScimRequestsTable {
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
interface TwoStepFactorsTable {
  user_id: string;
  totp_secret: string;
  created_at: Timestamp;
  confirmed_at: NullableTimestamp;
  /** The last time step whose code was accepted: a code of that step or before is refused (RFC 6238 5.2). */
  last_totp_step: ColumnType<string | null, number | string | null, number | string | null>;
}

/** Single-use recovery codes, as SHA-256 hashes. */
interface TwoStepRecoveryCodesTable {
  user_id: string;
  code_hash: Buffer;
  created_at: Timestamp;
  used_at: NullableTimestamp;
}

/** Browsers trusted for the second step (the SHA-256 of their cookie value). */
interface TwoStepTrustedDevicesTable {
  token_hash: Buffer;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface DB {
  user: UserTable;
  session: SessionTable;
  account: AccountTable;
  verification: VerificationTable;
  organisations: OrganisationsTable;
  organisation_ancestors: OrganisationAncestorsTable;
  licenses: LicensesTable;
  members: MembersTable;
  admins: AdminsTable;
  libraries: LibrariesTable;
  library_memberships: LibraryMembershipsTable;
  books: BooksTable;
  lti_credentials: LtiCredentialsTable;
  analytics_events: AnalyticsEventsTable;
  analytics_daily: AnalyticsDailyTable;
  analytics_users: AnalyticsUsersTable;
  portfolio_exports: PortfolioExportsTable;
  mail_outbox: MailOutboxTable;
  audit_events: AuditEventsTable;
  access_log: AccessLogTable;
  rate_limits: RateLimitsTable;
  lti_nonces: LtiNoncesTable;
  lti_users: LtiUsersTable;
  lti_account_rates: LtiAccountRatesTable;
  lti_platforms: LtiPlatformsTable;
  lti_tool_keys: LtiToolKeysTable;
  idempotency_keys: IdempotencyKeysTable;
  member_counts: MemberCountsTable;
  member_list_versions: MemberListVersionsTable;
  students: StudentsTable;
  portfolio_items: PortfolioItemsTable;
  portfolio_export_chunks: PortfolioExportChunksTable;
  featured_books: FeaturedBooksTable;
  avatar_images: AvatarImagesTable;
  scim_tokens: ScimTokensTable;
  scim_users: ScimUsersTable;
  scim_requests: ScimRequestsTable;
  scim_groups: ScimGroupsTable;
  scim_group_members: ScimGroupMembersTable;
  scim_admin_grants: ScimAdminGrantsTable;
  two_step_factors: TwoStepFactorsTable;
  two_step_recovery_codes: TwoStepRecoveryCodesTable;
  two_step_trusted_devices: TwoStepTrustedDevicesTable;
}
