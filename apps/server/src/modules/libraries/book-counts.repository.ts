import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

/** Books in the libraries a member owns: non-private ones, the private one, and both (the members module's book-counts route). */
export async function countOwnedBooks(
  db: Kysely<DB>,
  organisationId: string,
  memberId: string,
): Promise<{ owned: number; private: number; total: number }> {
  const row = await db
    .selectFrom('books as b')
    .innerJoin('libraries as lib', (join) =>
      join.onRef('lib.organisation_id', '=', 'b.organisation_id').onRef('lib.id', '=', 'b.library_id'),
    )
    .where('lib.organisation_id', '=', organisationId)
    .where('lib.owner_member_id', '=', memberId)
    .select([
      sql<number>`count(*) FILTER (WHERE NOT lib.is_private)`.as('owned'),
      sql<number>`count(*) FILTER (WHERE lib.is_private)`.as('private'),
      sql<number>`count(*)`.as('total'),
    ])
    .executeTakeFirstOrThrow();
  return { owned: Number(row.owned), private: Number(row.private), total: Number(row.total) };
}
