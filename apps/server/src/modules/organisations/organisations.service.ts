import type { Kysely } from 'kysely';
import type { OrgAccessLevel } from '@quire/core';
import type { DB } from '../../db/types.js';
import { appError } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import { listAccessibleOrganisations, requireOrgAccess } from '../access/org-access.js';
import { listAdminEmails } from './organisations.repository.js';

/** An unverified address proves nothing: it opens no organisation. */
function requireVerified(actor: Actor): void {
  if (!actor.emailVerified) throw appError('email_not_verified');
}

/** getOrganisations: where the actor is an admin or a library manager, by name. */
export async function getOrganisations(db: Kysely<DB>, actor: Actor) {
  requireVerified(actor);
  return listAccessibleOrganisations(db, actor);
}

/**
 * getOrganisationById: the organisation's own fields and the actor's access (read once, with the access
 * check); licences, admins, LTI and settings (the settings module's, the values in force) load on demand.
 */
export async function getOrganisationById(db: Kysely<DB>, actor: Actor, organisationId: string) {
  requireVerified(actor);
  const { level, organisation: row } = await requireOrgAccess(db, actor, organisationId, 'read', { missing: 'not-found' });
  return {
    id: row.id,
    name: row.name,
    isDomain: row.is_domain,
    features: { orgLibraries: row.org_libraries, studentPortfolios: row.student_portfolios, visitLibraries: row.visit_libraries },
    access: level satisfies OrgAccessLevel,
  };
}

export async function getOrganisationAdmins(db: Kysely<DB>, organisationId: string) {
  return listAdminEmails(db, organisationId);
}
