import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/types.js';
import { forbidden, notFound } from '../../errors.js';
import type { Actor } from './actor.js';

/** What an actor may do in one organisation: admins manage it; library managers (orgLibraries on) only read. */
export type OrgAccessLevel = 'admin' | 'library-manager';

export interface OrgAccess {
  organisationId: string;
  level: OrgAccessLevel;
}

/**
 * The actor's access level in an organisation as one SQL expression ('admin', 'library-manager' or NULL), so
 * a hot read can decide access in the same statement as its data (the Teachers page does). Admins are listed
 * by e-mail or user id; library managers are members with role 400, not removed, while orgLibraries is on.
 * Access follows the e-mail address, so an address nobody has proven owning opens nothing.
 */
export function orgAccessLevel(actor: Actor, organisationId: string): RawBuilder<OrgAccessLevel | null> {
  if (!actor.emailVerified) return sql<null>`NULL::text`;
  const email = actor.email.toLowerCase();
  return sql<OrgAccessLevel | null>`(CASE
    WHEN EXISTS (SELECT 1 FROM admins a WHERE a.organisation_id = ${organisationId} AND (a.email = ${email} OR a.user_id = ${actor.userId}))
      THEN 'admin'
    WHEN EXISTS (SELECT 1 FROM members mm JOIN organisations o ON o.id = mm.organisation_id
      WHERE mm.organisation_id = ${organisationId} AND o.org_libraries AND mm.role = 400 AND mm.revoked_at IS NULL
        AND (mm.email = ${email} OR mm.user_id = ${actor.userId}))
      THEN 'library-manager'
  END)`;
}

/** Resolves the actor's access to an organisation, or null when they have none (one statement). */
export async function findOrgAccess(db: Kysely<DB>, actor: Actor, organisationId: string): Promise<OrgAccess | null> {
  if (!actor.emailVerified) return null;
  const { rows } = await sql<{ level: OrgAccessLevel | null }>`SELECT ${orgAccessLevel(actor, organisationId)} AS level`.execute(db);
  const level = rows[0]?.level ?? null;
  return level ? { organisationId, level } : null;
}

/** The refusal of an actor without access (403). */
export function organisationForbidden() {
  return forbidden('You do not have access to this organisation', 'organisation_forbidden');
}

/** The refusal of a library manager where an admin is needed (403). */
export function adminRequired() {
  return forbidden('Your account cannot perform this action', 'admin_required');
}

/** Any access (admin or library manager); otherwise 403. Use for reads. */
export async function requireOrgReader(db: Kysely<DB>, actor: Actor, organisationId: string): Promise<OrgAccess> {
  const access = await findOrgAccess(db, actor, organisationId);
  if (!access) throw organisationForbidden();
  return access;
}

/** Admin access; otherwise 403. Use for every change. */
export async function requireOrgAdmin(db: Kysely<DB>, actor: Actor, organisationId: string): Promise<OrgAccess> {
  const access = await requireOrgReader(db, actor, organisationId);
  if (access.level !== 'admin') throw adminRequired();
  return access;
}

/** 404 unless the organisation exists; keeps "no such organisation" apart from "not yours". */
export async function requireOrganisationExists(db: Kysely<DB>, organisationId: string): Promise<void> {
  const row = await db.selectFrom('organisations').select('id').where('id', '=', organisationId).executeTakeFirst();
  if (!row) throw notFound('Organisation not found', 'organisation_not_found');
}
