import { sql, type Kysely } from 'kysely';

/**
 * Settings that flow down (docs/settings.md "Districts"): an organisation with organisations under it keeps, per
 * setting, its policy for them beside its own settings, in the same shape:
 * `{ "apps": { "<appId>": { "mode": "locked" | "default", "value": 1 | -1 | 0 } }, "imageSearch"?: { "mode", "value": "pixabay" | "google" } }`.
 * A setting absent here is 'Let schools decide'. Each school's own value stays in its `settings`, untouched by a
 * lock above, so lifting the lock gives it back. Resolution reads the organisation and its ancestors in one
 * statement through organisation_ancestors.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE organisations ADD COLUMN setting_policies jsonb NOT NULL DEFAULT '{}'::jsonb`.execute(db);
  await sql`COMMENT ON COLUMN organisations.setting_policies IS 'Policies for the organisations below: per setting locked or default with a value; absent = let schools decide'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE organisations DROP COLUMN IF EXISTS setting_policies`.execute(db);
}
