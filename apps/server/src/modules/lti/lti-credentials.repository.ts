import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/types.js';

type Db = Kysely<DB> | Transaction<DB>;

export async function findCredentialsByOrganisation(db: Db, organisationId: string) {
  return db
    .selectFrom('lti_credentials')
    .select(['organisation_id', 'consumer_key', 'consumer_secret'])
    .where('organisation_id', '=', organisationId)
    .executeTakeFirst();
}

export async function findCredentialsByKey(db: Db, consumerKey: string) {
  return db
    .selectFrom('lti_credentials')
    .innerJoin('organisations', 'organisations.id', 'lti_credentials.organisation_id')
    .select(['lti_credentials.organisation_id', 'lti_credentials.consumer_key', 'lti_credentials.consumer_secret', 'organisations.name as organisation_name'])
    .where('lti_credentials.consumer_key', '=', consumerKey)
    .executeTakeFirst();
}

/** Inserts the organisation's credentials; false when it already has some. */
export async function insertCredentials(db: Db, row: { organisationId: string; consumerKey: string; encryptedSecret: string }): Promise<boolean> {
  const inserted = await db
    .insertInto('lti_credentials')
    .values({ organisation_id: row.organisationId, consumer_key: row.consumerKey, consumer_secret: row.encryptedSecret })
    .onConflict((oc) => oc.column('organisation_id').doNothing())
    .returning('organisation_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Deletes the organisation's credentials and the nonces seen for them; the key it had, or undefined. */
export async function deleteCredentials(db: Db, organisationId: string): Promise<string | undefined> {
  const deleted = await db.deleteFrom('lti_credentials').where('organisation_id', '=', organisationId).returning('consumer_key').executeTakeFirst();
  if (deleted) await db.deleteFrom('lti_nonces').where('consumer_key', '=', deleted.consumer_key).execute();
  return deleted?.consumer_key;
}

/** Rows whose secret is still plaintext (written by an earlier version or the demo seeder). */
export async function listPlaintextSecrets(db: Db) {
  return db
    .selectFrom('lti_credentials')
    .select(['organisation_id', 'consumer_key', 'consumer_secret'])
    .where('consumer_secret', 'not like', 'enc:v1:%')
    .execute();
}

export async function updateSecret(db: Db, organisationId: string, from: string, encryptedSecret: string): Promise<void> {
  await db
    .updateTable('lti_credentials')
    .set({ consumer_secret: encryptedSecret })
    .where('organisation_id', '=', organisationId)
    .where('consumer_secret', '=', from)
    .execute();
}
