import { randomUUID } from 'node:crypto';
import { LIBRARY_ROLE_OWNER } from '@quire/core';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../src/db/types.js';

/** Library fixtures for the teacher libraries tests. */

export interface LibraryFixture {
  organisationId: string;
  ownerId: string;
  name?: string;
  isPrivate?: boolean;
  archived?: boolean;
  /** Other members and their library role; the owner is added as Owner (100). */
  members?: Array<{ memberId: string; role: number }>;
  books?: number;
  publishedBooks?: number;
}

export async function buildLibrary(db: Kysely<DB>, fixture: LibraryFixture): Promise<{ id: string; name: string }> {
  const id = randomUUID();
  const name = fixture.name ?? `Library ${id.slice(0, 8)}`;
  await db
    .insertInto('libraries')
    .values({
      id, organisation_id: fixture.organisationId, owner_member_id: fixture.ownerId, name,
      is_private: fixture.isPrivate ?? false, archived_at: fixture.archived ? sql`now()` : null,
    })
    .execute();
  const memberships = [{ memberId: fixture.ownerId, role: LIBRARY_ROLE_OWNER }, ...(fixture.members ?? [])];
  await db
    .insertInto('library_memberships')
    .values(memberships.map((m) => ({ organisation_id: fixture.organisationId, library_id: id, member_id: m.memberId, role: m.role })))
    .execute();
  const books = fixture.books ?? 0;
  const published = fixture.publishedBooks ?? 0;
  for (let i = 0; i < books; i++) {
    await db
      .insertInto('books')
      .values({ id: randomUUID(), organisation_id: fixture.organisationId, library_id: id, author_member_id: fixture.ownerId, title: `Book ${i}`, published: i < published })
      .execute();
  }
  return { id, name };
}

/** Where each of the libraries is: owner, archived, private, name. */
export async function librarySnapshot(db: Kysely<DB>, ids: readonly string[]) {
  return db
    .selectFrom('libraries')
    .select(['id', 'owner_member_id', 'archived_at', 'is_private', 'name'])
    .where('id', 'in', [...ids])
    .orderBy('id')
    .execute();
}

export async function membershipsOf(db: Kysely<DB>, libraryId: string) {
  return db.selectFrom('library_memberships').select(['member_id', 'role']).where('library_id', '=', libraryId).orderBy('member_id').execute();
}

export async function auditActions(db: Kysely<DB>, organisationId: string, action: string) {
  return db.selectFrom('audit_events').selectAll().where('organisation_id', '=', organisationId).where('action', '=', action).execute();
}

/**
 * Makes the next audit row of this action fail, so a test can prove the change before it rolled back.
 * The audit row is written last in each transaction, after every library was moved.
 */
export async function failNextAudit(db: Kysely<DB>, action: string): Promise<() => Promise<void>> {
  const fn = `fail_audit_${randomUUID().replace(/-/g, '')}`;
  await sql.raw(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.action = '${action}' THEN RAISE EXCEPTION 'forced failure for the test'; END IF; RETURN NEW; END $$`).execute(db);
  await sql.raw(`CREATE TRIGGER ${fn} BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION ${fn}()`).execute(db);
  return async () => {
    await sql.raw(`DROP TRIGGER ${fn} ON audit_events`).execute(db);
    await sql.raw(`DROP FUNCTION ${fn}()`).execute(db);
  };
}
