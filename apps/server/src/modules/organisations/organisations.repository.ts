import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/types.js';

type Db = Kysely<DB> | Transaction<DB>;

/**
 * The organisations a user may act in: admin (admins, by e-mail or user id) or library manager
 * (a role-400 member, not removed, where orgLibraries is on). Sorted by name, then id.
 */
export async function listOrganisationsForUser(db: Db, user: { userId: string; email: string }) {
  const email = user.email.toLowerCase();
  return db
    .selectFrom('organisations as o')
    .select(['o.id', 'o.name'])
    .where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('admins as a')
            .select(sql<number>`1`.as('one'))
            .whereRef('a.organisation_id', '=', 'o.id')
            .where((w) => w.or([w('a.email', '=', email), w('a.user_id', '=', user.userId)])),
        ),
        eb.and([
          eb('o.org_libraries', '=', true),
          eb.exists(
            eb
              .selectFrom('members as m')
              .select(sql<number>`1`.as('one'))
              .whereRef('m.organisation_id', '=', 'o.id')
              .where('m.role', '=', 400)
              .where('m.revoked_at', 'is', null)
              .where((w) => w.or([w('m.email', '=', email), w('m.user_id', '=', user.userId)])),
          ),
        ]),
      ]),
    )
    .orderBy('o.name')
    .orderBy('o.id')
    .execute();
}

export async function findOrganisation(db: Db, organisationId: string) {
  return db
    .selectFrom('organisations')
    .select(['id', 'name', 'is_domain', 'org_libraries', 'student_portfolios', 'visit_libraries', 'settings'])
    .where('id', '=', organisationId)
    .executeTakeFirst();
}

/** The organisation's licences with how many active members hold each. */
export async function listLicensesWithAllocation(db: Db, organisationId: string) {
  return db
    .selectFrom('licenses as l')
    .leftJoin('members as m', (join) =>
      join.onRef('m.organisation_id', '=', 'l.organisation_id').onRef('m.license_id', '=', 'l.id').on('m.revoked_at', 'is', null),
    )
    .select((eb) => [
      'l.id',
      'l.name',
      'l.quantity',
      'l.book_quota',
      'l.library_quota',
      'l.apply_to_all',
      eb.fn.count<number>('m.id').as('allocated'),
    ])
    .where('l.organisation_id', '=', organisationId)
    .groupBy('l.id')
    .orderBy('l.created_at')
    .orderBy('l.id')
    .execute();
}

export async function listAdminEmails(db: Db, organisationId: string) {
  return db.selectFrom('admins').select('email').where('organisation_id', '=', organisationId).orderBy('email').execute();
}
