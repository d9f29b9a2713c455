import { sql, type Kysely } from 'kysely';

/**
 * Keys that name their tenant (docs/scale-out.md, "Checked: every tenant table partitioned by organisation"). A table
 * sharded by tenant can only hold a primary key that includes the distribution column; these two keys lacked
 * `organisation_id` while meaning a row of one organisation (the library, the export belong to one), so appending it
 * keeps their meaning. Appended, not put first, so the index still serves the lookups by library and by export it
 * served before.
 *
 * Every audit entry belongs to one organisation: a shard holds rows of a tenant, and a row of none has no shard. The only
 * entries without one were changes of their own 2-step verification by people who administer no organisation, read by
 * no audit view; they move to those people's access log (where such changes now go), and the column becomes required.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE library_memberships
      DROP CONSTRAINT library_memberships_pkey,
      ADD CONSTRAINT library_memberships_pkey PRIMARY KEY (library_id, member_id, organisation_id)`.execute(db);
  await sql`
    ALTER TABLE portfolio_export_chunks
      DROP CONSTRAINT portfolio_export_chunks_pkey,
      ADD CONSTRAINT portfolio_export_chunks_pkey PRIMARY KEY (export_id, seq, organisation_id)`.execute(db);
  await sql`
    INSERT INTO access_log (user_id, event, ip, user_agent, created_at)
    SELECT actor_user_id, action, ip, left(user_agent, 512), created_at FROM audit_events
    WHERE organisation_id IS NULL AND actor_user_id IS NOT NULL`.execute(db);
  // The immutability trigger lets a row go when its organisation does not exist, which a row of none never does.
  await sql`DELETE FROM audit_events WHERE organisation_id IS NULL`.execute(db);
  await sql`ALTER TABLE audit_events ALTER COLUMN organisation_id SET NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE audit_events ALTER COLUMN organisation_id DROP NOT NULL`.execute(db);
  await sql`
    ALTER TABLE portfolio_export_chunks
      DROP CONSTRAINT portfolio_export_chunks_pkey,
      ADD CONSTRAINT portfolio_export_chunks_pkey PRIMARY KEY (export_id, seq)`.execute(db);
  await sql`
    ALTER TABLE library_memberships
      DROP CONSTRAINT library_memberships_pkey,
      ADD CONSTRAINT library_memberships_pkey PRIMARY KEY (library_id, member_id)`.execute(db);
}
