import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testEnv } from '../../test/helper.js';
import { verifyPassword } from '../modules/identity/password.js';
import { openDatabase } from './client.js';
import { seedDemoIfEmpty } from './demo/seed-demo.js';
import type { DB } from './types.js';

/**
 * The PGlite backups of docs/operations.md ("Backups"): a copy of DATA_DIR made with the server stopped, and a
 * `dumpDataDir` tarball, each restored into a fresh folder, give back the demo district as it was. The
 * PostgreSQL pass of the suite (TEST_DATABASE_URL) skips this file: it is about the embedded database only.
 */
const template = inject('databaseTemplate');

/** What a restore must give back: every organisation with its parent, teachers, licences and seats, and a checksum of the members. */
async function fingerprint(db: Kysely<DB>) {
  const { rows: organisations } = await sql<Record<string, unknown>>`
    SELECT o.name, p.name AS parent, o.is_domain,
           (SELECT count(*)::int FROM members m WHERE m.organisation_id = o.id AND NOT m.is_student) AS teachers,
           (SELECT count(*)::int FROM members m WHERE m.organisation_id = o.id AND m.license_id IS NOT NULL) AS licensed,
           (SELECT count(*)::int FROM licenses l WHERE l.organisation_id = o.id) AS licences,
           (SELECT coalesce(sum(l.quantity), 0)::int FROM licenses l WHERE l.organisation_id = o.id) AS seats,
           (SELECT count(*)::int FROM admins a WHERE a.organisation_id = o.id) AS admins
    FROM organisations o LEFT JOIN organisations p ON p.id = o.parent_id
    ORDER BY o.name`.execute(db);
  const { rows } = await sql<{ members: string; licences: string }>`
    SELECT (SELECT md5(string_agg(concat_ws('|', m.id, m.organisation_id, m.email, m.role, m.pending, m.license_id, m.revoked_at), ',' ORDER BY m.id)) FROM members m) AS members,
           (SELECT md5(string_agg(concat_ws('|', l.id, l.organisation_id, l.quantity, l.book_quota, l.library_quota, l.apply_to_all), ',' ORDER BY l.id)) FROM licenses l) AS licences`.execute(db);
  return { organisations, checksums: rows[0] };
}

describe.skipIf(template?.kind !== 'pglite')('PGlite backups', () => {
  const root = mkdtempSync(join(tmpdir(), 'quire-backup-'));
  const env = testEnv({ DEMO_SEED: true, DEMO_TEACHERS: 20, DEMO_ADMIN_PASSWORD: 'restore-me-42' });
  const dataDir = (name: string) => join(root, name);
  let seeded: Awaited<ReturnType<typeof fingerprint>>;
  let tarball: string;

  beforeAll(async () => {
    // A server's DATA_DIR: the run's migrated template on disk, then the demo district.
    const live = await openDatabase({
      ...env,
      DATABASE_URL: undefined,
      DATA_DIR: dataDir('live'),
      loadDataDir: new Blob([readFileSync(template?.kind === 'pglite' ? template.tarball : '')]),
    });
    try {
      await seedDemoIfEmpty(live, env, () => undefined);
      seeded = await fingerprint(live.db);
      // The online backup: PGlite's own tarball of its data directory, taken by the process that has it open.
      tarball = join(root, 'quire-backup.tar.gz');
      writeFileSync(tarball, Buffer.from(await (await live.pglite!.dumpDataDir('gzip')).arrayBuffer()));
    } finally {
      // The server stops...
      await live.close();
    }
    // ...and its DATA_DIR is copied.
    cpSync(dataDir('live'), dataDir('copy'), { recursive: true });
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('seeds the demo district it backs up', () => {
    expect(seeded.organisations.length).toBeGreaterThanOrEqual(3);
    const main = seeded.organisations.find((o) => o.name === 'Maple Grove High School');
    expect(main?.teachers).toBeGreaterThanOrEqual(20);
    expect(main?.licences).toBeGreaterThanOrEqual(1);
  });

  it('restores a copy of DATA_DIR made with the server stopped: the demo organisations, teachers and licences are intact', async () => {
    const restored = await openDatabase({ ...env, DATABASE_URL: undefined, DATA_DIR: dataDir('copy') });
    try {
      expect(await fingerprint(restored.db)).toEqual(seeded);
      const account = await restored.db
        .selectFrom('account').innerJoin('user', 'user.id', 'account.userId')
        .select('account.password').where('user.email', '=', env.DEMO_ADMIN_EMAIL).executeTakeFirstOrThrow();
      expect(await verifyPassword(account.password ?? '', 'restore-me-42')).toBe(true);
    } finally {
      await restored.close();
    }
  });

  it('restores a dumpDataDir tarball into a fresh DATA_DIR, which keeps it after a restart', async () => {
    const loaded = await openDatabase({ ...env, DATABASE_URL: undefined, DATA_DIR: dataDir('from-tarball'), loadDataDir: new Blob([readFileSync(tarball)]) });
    try {
      expect(await fingerprint(loaded.db)).toEqual(seeded);
    } finally {
      await loaded.close();
    }
    const reopened = await openDatabase({ ...env, DATABASE_URL: undefined, DATA_DIR: dataDir('from-tarball') });
    try {
      expect(await fingerprint(reopened.db)).toEqual(seeded);
    } finally {
      await reopened.close();
    }
  });
});
