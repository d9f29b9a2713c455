import { sql, type Kysely } from 'kysely';

/**
 * The whole schema of spec §3. Every organisation-scoped table carries organisation_id, and
 * child rows reference their parent through (organisation_id, id) so a row can never point
 * into another organisation. The identity tables keep the column names Better Auth expects.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);

  // Identity (Better Auth core schema).
  await sql`
    CREATE TABLE "user" (
      id text PRIMARY KEY,
      name text NOT NULL,
      email text NOT NULL UNIQUE,
      "emailVerified" boolean NOT NULL DEFAULT false,
      image text,
      "createdAt" timestamptz NOT NULL DEFAULT now(),
      "updatedAt" timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE session (
      id text PRIMARY KEY,
      "expiresAt" timestamptz NOT NULL,
      token text NOT NULL UNIQUE,
      "createdAt" timestamptz NOT NULL DEFAULT now(),
      "updatedAt" timestamptz NOT NULL DEFAULT now(),
      "ipAddress" text,
      "userAgent" text,
      "userId" text NOT NULL REFERENCES "user"(id) ON DELETE CASCADE
    )`.execute(db);
  await sql`CREATE INDEX session_user_idx ON session ("userId")`.execute(db);
  await sql`
    CREATE TABLE account (
      id text PRIMARY KEY,
      "accountId" text NOT NULL,
      "providerId" text NOT NULL,
      "userId" text NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
      "accessToken" text,
      "refreshToken" text,
      "idToken" text,
      "accessTokenExpiresAt" timestamptz,
      "refreshTokenExpiresAt" timestamptz,
      scope text,
      password text,
      "createdAt" timestamptz NOT NULL DEFAULT now(),
      "updatedAt" timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX account_user_idx ON account ("userId")`.execute(db);
  await sql`
    CREATE TABLE verification (
      id text PRIMARY KEY,
      identifier text NOT NULL,
      value text NOT NULL,
      "expiresAt" timestamptz NOT NULL,
      "createdAt" timestamptz NOT NULL DEFAULT now(),
      "updatedAt" timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX verification_identifier_idx ON verification (identifier)`.execute(db);

  // Organisations, licences, members, admins.
  await sql`
    CREATE TABLE organisations (
      id text PRIMARY KEY,
      name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 128 AND name = btrim(name)),
      is_domain boolean NOT NULL DEFAULT false,
      org_libraries boolean NOT NULL DEFAULT false,
      student_portfolios boolean NOT NULL DEFAULT false,
      visit_libraries boolean NOT NULL DEFAULT false,
      settings jsonb NOT NULL DEFAULT '{"apps": {}}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX organisations_name_idx ON organisations (name)`.execute(db);
  await sql`
    CREATE TABLE licenses (
      id text PRIMARY KEY,
      organisation_id text NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
      name text NOT NULL DEFAULT '',
      quantity integer NOT NULL CHECK (quantity >= 0),
      book_quota integer NOT NULL CHECK (book_quota >= 0),
      library_quota integer CHECK (library_quota IS NULL OR library_quota >= 0),
      apply_to_all boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (organisation_id, id)
    )`.execute(db);
  await sql`COMMENT ON COLUMN licenses.library_quota IS 'NULL means UNLIMITED'`.execute(db);
  await sql`
    CREATE TABLE members (
      id text PRIMARY KEY,
      organisation_id text NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
      user_id text REFERENCES "user"(id) ON DELETE SET NULL,
      email text NOT NULL CHECK (email = lower(email)),
      display_name text NOT NULL DEFAULT '',
      role integer NOT NULL DEFAULT 600,
      license_id text,
      pending boolean NOT NULL DEFAULT true,
      calevel1_at timestamptz,
      calevel2_at timestamptz,
      certifying real CHECK (certifying IS NULL OR (certifying >= 0 AND certifying <= 1)),
      is_ambassador boolean NOT NULL DEFAULT false,
      is_student boolean NOT NULL DEFAULT false,
      revoked_at timestamptz,
      signed_up_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (organisation_id, email),
      UNIQUE (organisation_id, id),
      FOREIGN KEY (organisation_id, license_id) REFERENCES licenses(organisation_id, id) ON DELETE SET NULL (license_id)
    )`.execute(db);
  await sql`CREATE INDEX members_active_email_idx ON members (organisation_id, email) WHERE revoked_at IS NULL`.execute(db);
  await sql`CREATE INDEX members_inactive_email_idx ON members (organisation_id, email) WHERE revoked_at IS NOT NULL`.execute(db);
  await sql`CREATE INDEX members_license_idx ON members (organisation_id, license_id) WHERE license_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX members_user_idx ON members (user_id) WHERE user_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX members_email_trgm_idx ON members USING gin (email gin_trgm_ops)`.execute(db);
  await sql`CREATE INDEX members_name_trgm_idx ON members USING gin (lower(display_name) gin_trgm_ops)`.execute(db);
  await sql`
    CREATE TABLE admins (
      organisation_id text NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
      email text NOT NULL CHECK (email = lower(email)),
      user_id text REFERENCES "user"(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (organisation_id, email)
    )`.execute(db);
  await sql`CREATE INDEX admins_email_idx ON admins (email)`.execute(db);

  // Libraries, memberships, books.
  await sql`
    CREATE TABLE libraries (
      id text PRIMARY KEY,
      organisation_id text NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
      owner_member_id text NOT NULL,
      name text NOT NULL,
      is_private boolean NOT NULL DEFAULT false,
      archived_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (organisation_id, id),
      FOREIGN KEY (organisation_id, owner_member_id) REFERENCES members(organisation_id, id) ON DELETE CASCADE
    )`.execute(db);
  await sql`CREATE INDEX libraries_owner_idx ON libraries (organisation_id, owner_member_id)`.execute(db);
  await sql`
    CREATE TABLE library_memberships (
      organisation_id text NOT NULL,
      library_id text NOT NULL,
      member_id text NOT NULL,
      role integer NOT NULL,
      joined_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (library_id, member_id),
      FOREIGN KEY (organisation_id, library_id) REFERENCES libraries(organisation_id, id) ON DELETE CASCADE,
      FOREIGN KEY (organisation_id, member_id) REFERENCES members(organisation_id, id) ON DELETE CASCADE
    )`.execute(db);
  await sql`CREATE INDEX library_memberships_member_idx ON library_memberships (organisation_id, member_id)`.execute(db);
  await sql`
    CREATE TABLE books (
      id text PRIMARY KEY,
      organisation_id text NOT NULL,
      library_id text NOT NULL,
      author_member_id text,
      title text NOT NULL,
      shape text NOT NULL DEFAULT 'portrait' CHECK (shape IN ('landscape', 'square', 'portrait')),
      published boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      FOREIGN KEY (organisation_id, library_id) REFERENCES libraries(organisation_id, id) ON DELETE CASCADE
    )`.execute(db);
  await sql`CREATE INDEX books_library_idx ON books (organisation_id, library_id)`.execute(db);
  await sql`CREATE INDEX books_author_idx ON books (organisation_id, author_member_id)`.execute(db);

  // LTI, analytics, portfolios.
  await sql`
    CREATE TABLE lti_credentials (
      organisation_id text PRIMARY KEY REFERENCES organisations(id) ON DELETE CASCADE,
      consumer_key text NOT NULL UNIQUE,
      consumer_secret text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE analytics_events (
      id bigserial PRIMARY KEY,
      organisation_id text NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
      occurred_at timestamptz NOT NULL,
      user_id text,
      user_kind text NOT NULL CHECK (user_kind IN ('student', 'teacher')),
      os text NOT NULL,
      provider text NOT NULL,
      email_domain text,
      duration_seconds integer NOT NULL DEFAULT 0 CHECK (duration_seconds >= 0)
    )`.execute(db);
  await sql`CREATE INDEX analytics_events_org_time_idx ON analytics_events (organisation_id, occurred_at)`.execute(db);
  await sql`
    CREATE TABLE analytics_daily (
      organisation_id text NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
      metric text NOT NULL,
      day date NOT NULL,
      name text NOT NULL DEFAULT '',
      students bigint NOT NULL DEFAULT 0,
      teachers bigint NOT NULL DEFAULT 0,
      total bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (organisation_id, metric, day, name)
    )`.execute(db);
  await sql`COMMENT ON TABLE analytics_daily IS 'Rollup of analytics_events per day; metrics sessions, sessions-duration, sessions-by-os, sessions-by-provider, email-domains'`.execute(db);
  await sql`
    CREATE TABLE portfolio_exports (
      id text PRIMARY KEY,
      organisation_id text NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
      generated_at timestamptz NOT NULL DEFAULT now(),
      row_count integer NOT NULL DEFAULT 0,
      content text NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX portfolio_exports_org_idx ON portfolio_exports (organisation_id, generated_at DESC)`.execute(db);

  // Mail, audit, access log.
  await sql`
    CREATE TABLE mail_outbox (
      id text PRIMARY KEY,
      organisation_id text REFERENCES organisations(id) ON DELETE SET NULL,
      recipient text NOT NULL,
      subject text NOT NULL,
      text_body text NOT NULL,
      html_body text,
      status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed', 'logged')),
      attempts integer NOT NULL DEFAULT 0,
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX mail_outbox_recipient_idx ON mail_outbox (recipient, created_at DESC)`.execute(db);
  await sql`
    CREATE TABLE audit_events (
      id bigserial PRIMARY KEY,
      organisation_id text REFERENCES organisations(id) ON DELETE CASCADE,
      actor_user_id text,
      actor_email text,
      action text NOT NULL,
      target_type text,
      target_ids text[] NOT NULL DEFAULT '{}',
      details jsonb NOT NULL DEFAULT '{}'::jsonb,
      reason text,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX audit_events_org_time_idx ON audit_events (organisation_id, created_at DESC)`.execute(db);
  await sql`
    CREATE TABLE access_log (
      id bigserial PRIMARY KEY,
      user_id text NOT NULL,
      event text NOT NULL,
      ip text,
      user_agent text,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX access_log_user_idx ON access_log (user_id, created_at DESC)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'access_log', 'audit_events', 'mail_outbox', 'portfolio_exports', 'analytics_daily', 'analytics_events',
    'lti_credentials', 'books', 'library_memberships', 'libraries', 'admins', 'members', 'licenses',
    'organisations', 'verification', 'account', 'session', '"user"',
  ]) {
    await sql.raw(`DROP TABLE IF EXISTS ${table} CASCADE`).execute(db);
  }
}
