import { isProviderStaffEmail, ORGANISATION_TREE_MAX_DEPTH } from '@quire/core';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { Env } from '../../env.js';
import { appError } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import { recordAuditIn } from '../access/audit.js';
import * as repo from './organisations.repository.js';

/**
 * Seats a district allocated to a school belong to the district: the school cannot take them to another district
 * (or away from any), so a move waits until the district has returned them (set the allocation to 0).
 */
async function refuseWhileHoldingSeats(db: Kysely<DB>, organisation: { id: string; name: string; parent_id: string }): Promise<void> {
  const held = await repo.listAllocationsHeld(db, organisation.id, organisation.parent_id);
  if (held.length === 0) return;
  const district = (await repo.findTreeNode(db, organisation.parent_id))?.name ?? 'its district';
  const seats = held.map((l) => `${l.quantity} ${l.quantity === 1 ? 'seat' : 'seats'} of ${l.name}`).join(', ');
  throw appError('allocated_seats_held', {
    message: `${organisation.name} holds seats allocated by ${district} (${seats}). ${district} must return them (set the allocation to 0) before ${organisation.name} can be moved.`,
    details: { licenses: held.map((l) => ({ id: l.id, name: l.name, seats: l.quantity })) },
  });
}

/**
 * Organisations have no kind: what an organisation is follows from where it sits and what it holds. A school of a
 * district (under another organisation, with teachers of its own and nothing under it) cannot take an organisation
 * under it: that would make a school a district of another school. Any other organisation may: one with organisations
 * under it already is a district, one at the top becomes a district the first time a school is placed under it (as a
 * stand-alone organisation with teachers of its own may), and one with no teachers is an empty district (or region).
 */
async function refuseSchoolAsParent(
  db: Kysely<DB>,
  moving: { name: string },
  parent: { id: string; name: string; parent_id: string | null },
): Promise<void> {
  if (parent.parent_id === null) return;
  if ((await repo.heightBelow(db, parent.id)) > 0) return;
  if (!(await repo.hasOwnTeachers(db, parent.id))) return;
  const district = (await repo.findTreeNode(db, parent.parent_id))?.name ?? 'its district';
  throw appError('organisation_parent_is_school', {
    message: `${moving.name} cannot be placed under ${parent.name}: ${parent.name} is a school of ${district}, not a district. Place ${moving.name} under a district.`,
  });
}

/**
 * Places an organisation under another (a school into a district) or detaches it (parentId null): provider staff
 * only, recorded in the audit trail of the organisation, its old parent and its new one. A cycle or a tree deeper
 * than three levels is refused with a clear message (the tree's triggers refuse them too, whatever writes), and so is
 * a parent that is a school of a district (refuseSchoolAsParent).
 */
export async function moveOrganisation(
  db: Kysely<DB>,
  env: Pick<Env, 'PROVIDER_EMAIL_DOMAIN'>,
  actor: Actor,
  input: { organisationId: string; parentId: string | null },
): Promise<{ id: string; name: string; parentId: string | null }> {
  if (!actor.emailVerified || !actor.email || !isProviderStaffEmail(actor.email, env.PROVIDER_EMAIL_DOMAIN)) {
    throw appError('provider_staff_only');
  }
  const { organisationId, parentId } = input;
  return db.transaction().execute(async (trx) => {
    // Moves are serialised: two at once could each pass the checks and together make a cycle.
    await repo.lockOrganisationTree(trx);
    const organisation = await repo.findTreeNode(trx, organisationId);
    if (!organisation) throw appError('organisation_not_found');
    if (organisation.parent_id === parentId) return { id: organisation.id, name: organisation.name, parentId };
    if (organisation.parent_id !== null) {
      await refuseWhileHoldingSeats(trx, { id: organisation.id, name: organisation.name, parent_id: organisation.parent_id });
    }
    let parentName: string | null = null;
    if (parentId !== null) {
      const parent = await repo.findTreeNode(trx, parentId);
      if (!parent) throw appError('parent_not_found');
      if (parent.id === organisationId || (await repo.isBelow(trx, parentId, organisationId))) throw appError('organisation_tree_cycle');
      if (parent.depth + 1 + (await repo.heightBelow(trx, organisationId)) > ORGANISATION_TREE_MAX_DEPTH) throw appError('organisation_tree_depth');
      await refuseSchoolAsParent(trx, organisation, parent);
      parentName = parent.name;
    }
    await repo.setParent(trx, organisationId, parentId);
    const details = { from: organisation.parent_id, to: parentId, organisation: organisation.name, toName: parentName };
    const entry = {
      action: 'organisation.move' as const, targetType: 'organisation', targetIds: [organisationId], details,
      oldValue: { parent: organisation.parent_id }, newValue: { parent: parentId },
    };
    await recordAuditIn(trx, [organisationId, organisation.parent_id, parentId].filter((id): id is string => id !== null), actor, entry);
    return { id: organisation.id, name: organisation.name, parentId };
  });
}
