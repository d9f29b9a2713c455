import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { forbidden, notFound } from '../../errors.js';
import type { Actor } from './actor.js';

/** What an actor may do in one organisation: admins manage it; library managers (orgLibraries on) only read. */
export type OrgAccessLevel = 'admin' | 'library-manager';

export interface OrgAccess {
  organisationId: string;
  level: OrgAccessLevel;
}

/** Resolves the actor's access to an organisation, or null when they have none. */
export async function findOrgAccess(db: Kysely<DB>, actor: Actor, organisationId: string): Promise<OrgAccess | null> {
  // Access follows the e-mail address, so an address nobody has proven owning opens nothing.
  if (!actor.emailVerified) return null;
  const email = actor.email.toLowerCase();
  const admin = await db
    .selectFrom('admins')
    .select('organisation_id')
    .where('organisation_id', '=', organisationId)
    .where((eb) => eb.or([eb('email', '=', email), eb('user_id', '=', actor.userId)]))
    .executeTakeFirst();
  if (admin) return { organisationId, level: 'admin' };
  const manager = await db
    .selectFrom('members')
    .innerJoin('organisations', 'organisations.id', 'members.organisation_id')
    .select('members.id')
    .where('members.organisation_id', '=', organisationId)
    .where('organisations.org_libraries', '=', true)
    .where('members.role', '=', 400)
    .where('members.revoked_at', 'is', null)
    .where((eb) => eb.or([eb('members.email', '=', email), eb('members.user_id', '=', actor.userId)]))
    .executeTakeFirst();
  return manager ? { organisationId, level: 'library-manager' } : null;
}

/** Any access (admin or library manager); otherwise 403. Use for reads. */
export async function requireOrgReader(db: Kysely<DB>, actor: Actor, organisationId: string): Promise<OrgAccess> {
  const access = await findOrgAccess(db, actor, organisationId);
  if (!access) throw forbidden('You do not have access to this organisation', 'organisation_forbidden');
  return access;
}

/** Admin access; otherwise 403. Use for every change. */
export async function requireOrgAdmin(db: Kysely<DB>, actor: Actor, organisationId: string): Promise<OrgAccess> {
  const access = await requireOrgReader(db, actor, organisationId);
  if (access.level !== 'admin') throw forbidden('Your account cannot perform this action', 'admin_required');
  return access;
}

/** 404 unless the organisation exists; keeps "no such organisation" apart from "not yours". */
export async function requireOrganisationExists(db: Kysely<DB>, organisationId: string): Promise<void> {
  const row = await db.selectFrom('organisations').select('id').where('id', '=', organisationId).executeTakeFirst();
  if (!row) throw notFound('Organisation not found', 'organisation_not_found');
}
