import { sql, type Kysely } from 'kysely';

/**
 * An identity provider (a SCIM token's requests) is an actor of its own in the audit log, as a learning platform is:
 * its entries were recorded as a scheduled job's. The check is added NOT VALID and then validated, so the table is not
 * locked against writes while its rows are checked.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE audit_events
      DROP CONSTRAINT audit_events_actor_kind_check,
      ADD CONSTRAINT audit_events_actor_kind_check CHECK (actor_kind IN ('user', 'provider_staff', 'lti_platform', 'identity_provider', 'job')) NOT VALID`.execute(db);
  await sql`ALTER TABLE audit_events VALIDATE CONSTRAINT audit_events_actor_kind_check`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE audit_events
      DROP CONSTRAINT audit_events_actor_kind_check,
      ADD CONSTRAINT audit_events_actor_kind_check CHECK (actor_kind IN ('user', 'provider_staff', 'lti_platform', 'job')) NOT VALID`.execute(db);
}
