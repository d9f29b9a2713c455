import type { ColumnType, Generated } from 'kysely';
import type { Json, NullableTimestamp, Timestamp } from './column-types.js';
import type {
  LtiCredentialsTable,
  LtiNoncesTable,
  LtiUsersTable,
  LtiPlatformsTable,
  LtiToolKeysTable,
  LtiAccountRatesTable,
  ScimTokensTable,
  ScimUsersTable,
  ScimGroupsTable,
  ScimGroupMembersTable,
  ScimAdminGrantsTable,
  ScimLibraryManagerGrantsTable,
  ScimRequestsTable,
  TwoStepFactorsTable,
  TwoStepPasskeyChallengesTable,
  TwoStepPasskeysTable,
  TwoStepRecoveryCodesTable,
  TwoStepTrustedDevicesTable,
  RosterImportsTable,
  RosterImportPeopleTable,
  RosterImportErrorsTable,
  RosterOrgLinksTable,
  RosterMembersTable,
} from './types-integrations.js';

export type { LtiCredentialsTable, ScimUserAttributes } from './types-integrations.js';
import type {
  AnalyticsEventsTable,
  AnalyticsDailyTable,
  AnalyticsUsersTable,
  PortfolioExportsTable,
  PortfolioExportChunksTable,
  StudentsTable,
  PortfolioItemsTable,
} from './types-analytics.js';

export type { PortfolioItemsTable, StudentsTable } from './types-analytics.js';

/** Kysely's view of the schema in migrations/. Columns are snake_case; presenters map them to the API's camelCase. */

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
  organisation_id: string;
  actor_user_id: string | null;
  actor_email: string | null;
  action: string;
  target_type: string | null;
  target_ids: ColumnType<string[], string[] | undefined, string[]>;
  details: Json<Record<string, unknown>>;
  reason: string | null;
  created_at: Timestamp;
  actor_name: string | null;
  actor_kind: Generated<'user' | 'provider_staff' | 'lti_platform' | 'identity_provider' | 'job'>;
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
interface MemberListVersionsTable {
  organisation_id: string;
  version: number;
}

/** A SCIM bearer token (migration 0021): only its SHA-256 is kept. */
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
  scim_library_manager_grants: ScimLibraryManagerGrantsTable;
  two_step_factors: TwoStepFactorsTable;
  two_step_recovery_codes: TwoStepRecoveryCodesTable;
  two_step_trusted_devices: TwoStepTrustedDevicesTable;
  two_step_passkeys: TwoStepPasskeysTable;
  two_step_passkey_challenges: TwoStepPasskeyChallengesTable;
  roster_imports: RosterImportsTable;
  roster_import_people: RosterImportPeopleTable;
  roster_import_errors: RosterImportErrorsTable;
  roster_org_links: RosterOrgLinksTable;
  roster_members: RosterMembersTable;
}
