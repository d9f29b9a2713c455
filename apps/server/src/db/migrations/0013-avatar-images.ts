import { sql, type Kysely } from 'kysely';

/**
 * A person's avatar as served: the stored picture decoded and scaled once (modules/assets/avatar-image.ts), kept
 * with the hash of the `user.image` it was made from, so a new picture is decoded once again and an old one never.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE avatar_images (
      user_id text PRIMARY KEY REFERENCES "user"(id) ON DELETE CASCADE,
      source_hash bytea NOT NULL,
      body bytea NOT NULL,
      content_type text NOT NULL,
      etag text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`COMMENT ON TABLE avatar_images IS 'Avatars as served (scaled WebP), one per user, with the SHA-256 of the user.image they were made from'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE avatar_images`.execute(db);
}
