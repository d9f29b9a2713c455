import type { Kysely, Transaction } from 'kysely';
import { now } from '../../db/sql-helpers.js';
import type { DB } from '../../db/types.js';

type Db = Kysely<DB> | Transaction<DB>;

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

/** The organisation's name, locked for the rename that follows. */
export async function lockOrganisationName(db: Db, organisationId: string) {
  return db.selectFrom('organisations').select(['id', 'name']).where('id', '=', organisationId).forUpdate().executeTakeFirst();
}

export async function setOrganisationName(db: Db, organisationId: string, name: string) {
  return db
    .updateTable('organisations')
    .set({ name, updated_at: now() })
    .where('id', '=', organisationId)
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
}
