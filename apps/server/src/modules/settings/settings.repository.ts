import { sql, type Kysely, type Transaction } from 'kysely';
import { now } from '../../db/sql-helpers.js';
import type { DB, OrganisationSettings } from '../../db/types.js';

type Db = Kysely<DB> | Transaction<DB>;

export async function findSettings(db: Db, organisationId: string, options: { forUpdate?: boolean } = {}) {
  let query = db.selectFrom('organisations').select('settings').where('id', '=', organisationId);
  if (options.forUpdate) query = query.forUpdate();
  return (await query.executeTakeFirst())?.settings;
}

export interface SettingsMerge {
  /** Apps to set to 1 or -1. */
  setApps: Record<string, 1 | -1>;
  /** Apps to reset (key removed). */
  unsetApps: string[];
  /** 'pixabay' to set, null to remove, undefined to leave. */
  imageSearch?: 'pixabay' | null;
}

/**
 * Merges a partial change into the stored settings in one statement, so concurrent changes to
 * different apps never overwrite each other: apps = (apps || set) - unset; imageSearch set or removed.
 */
export async function mergeSettings(db: Db, organisationId: string, change: SettingsMerge): Promise<OrganisationSettings | undefined> {
  const apps = sql`(coalesce(settings->'apps', '{}'::jsonb) || ${JSON.stringify(change.setApps)}::jsonb) - ${sql.val(change.unsetApps)}::text[]`;
  const withApps = sql`jsonb_set(settings, '{apps}', ${apps}, true)`;
  const next =
    change.imageSearch === undefined
      ? withApps
      : change.imageSearch === null
        ? sql`(${withApps}) - 'imageSearch'`
        : sql`(${withApps}) || ${JSON.stringify({ imageSearch: change.imageSearch })}::jsonb`;
  const row = await db
    .updateTable('organisations')
    .set({ settings: sql<OrganisationSettings>`${next}`, updated_at: now() })
    .where('id', '=', organisationId)
    .returning('settings')
    .executeTakeFirst();
  return row?.settings;
}

/** The member row of a user in an organisation (by user id, or by e-mail), if any. */
export async function findMemberOfUser(db: Db, organisationId: string, user: { userId: string; email: string | null }) {
  return db
    .selectFrom('members')
    .select(['id', 'is_student', 'revoked_at'])
    .where('organisation_id', '=', organisationId)
    .where((eb) => (user.email ? eb.or([eb('user_id', '=', user.userId), eb('email', '=', user.email.toLowerCase())]) : eb('user_id', '=', user.userId)))
    .orderBy('revoked_at', 'desc')
    .executeTakeFirst();
}
