import type { AuditAction } from '@quire/core';
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { DB, ScimUserAttributes } from '../../db/types.js';
import { appError } from '../../errors.js';
import { recordAudit } from '../access/audit.js';
import { restoreMembers, revokeMembers } from '../members/members.repository.js';
import { attributeSelection, selectAttributes, type AttributeQuery } from './scim-attributes.js';
import { listWindow, parseUserFilter, type UserCriteria } from './scim-filter.js';
import { applyPatch } from './scim-patch.js';
import { SCIM_LIST_SCHEMA } from './scim-schema.js';
import { parseScimUser, type ScimUserModel } from './scim-user.js';
import { presentScimUser, type ScimResource, type ScimUserRow } from './scim-user.presenter.js';
import * as repo from './scim-users.repository.js';
import { syncGroupRoles } from './scim-library-managers.service.js';
import { scimActor, type ScimContext } from './scim-context.js';

/**
 * The /Users resource of the SCIM endpoint. Every call acts in the organisation the token is bound to (never one a
 * request names), owns its transaction, and records its change in the organisation's audit trail with the token as
 * the actor. Removing and bringing back a teacher are the Teachers screen's own writes (members repository): the
 * member moves to Inactive and gives back their licence; their books and libraries stay theirs.
 */
type ScimUser = ScimResource;

const notFound = () => appError('scim_user_not_found');
const duplicate = (message?: string) => appError('scim_uniqueness', message ? { message } : {});

/** Runs a write; a unique index refusing it (a concurrent create of the same name) is 409 uniqueness, not a 500. */
async function writing<T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  try {
    return await db.transaction().execute(work);
  } catch (error) {
    if (repo.isUniqueViolation(error)) throw duplicate();
    throw error;
  }
}

function audit(trx: Transaction<DB>, ctx: ScimContext, action: AuditAction, memberId: string, details: Record<string, unknown> = {}) {
  return recordAudit(trx, scimActor(ctx), { organisationId: ctx.organisationId, action, targetType: 'member', targetIds: [memberId], details: { via: 'scim', tokenId: ctx.tokenId, ...details } });
}

async function readUser(db: Kysely<DB> | Transaction<DB>, ctx: ScimContext, memberId: string): Promise<ScimUser> {
  const row = await repo.findUser(db, ctx.organisationId, memberId);
  if (!row) throw notFound();
  return presentScimUser(row, ctx.baseUrl);
}

/** Sets the member's status as the provider wants it: the Teachers screen's Remove teacher / Mark as Active. */
async function setActive(trx: Transaction<DB>, ctx: ScimContext, memberId: string, active: boolean): Promise<boolean> {
  const changed = active ? await restoreMembers(trx, ctx.organisationId, [memberId]) : await revokeMembers(trx, ctx.organisationId, [memberId]);
  if (changed.length) await audit(trx, ctx, active ? 'scim.user.reactivated' : 'scim.user.deactivated', memberId);
  // A deactivated user is no admin through a group; brought back, they are again while still in it.
  await syncGroupRoles(trx, ctx, [memberId]);
  return changed.length > 0;
}

/**
 * POST /Users. A new address becomes a pending teacher, as an import makes one. An address that is already one of the
 * organisation's teachers, not yet managed by a provider, is taken over (the provider manages it from now on), so a
 * district that imported its staff before turning SCIM on gets no duplicates. 409 when the userName is taken, or the
 * address belongs to a student, a provider-staff member or a teacher another SCIM user manages.
 */
export async function createUser(db: Kysely<DB>, ctx: ScimContext, body: unknown): Promise<ScimUser> {
  const model = parseScimUser(body);
  const memberId = await writing(db, async (trx) => {
    if (await repo.findByUserName(trx, ctx.organisationId, model.userName)) throw duplicate(`A user with the userName ${model.userName} already exists`);
    const existing = await repo.findMemberByEmail(trx, ctx.organisationId, model.email);
    if (existing && (existing.scim_member_id || existing.is_student || existing.is_provider_staff)) {
      throw duplicate(`The e-mail ${model.email} already belongs to another user of this organisation`);
    }
    const id = existing?.id ?? randomUUID();
    // The audit record first: a new member's insert locks the organisation's teacher count (member_counts) until the
    // commit, so it comes as late as it can, and a provider's burst of creates queues on that row as little as it can.
    await audit(trx, ctx, 'scim.user.created', id, { userName: model.userName, existingMember: Boolean(existing) });
    if (existing) {
      if (model.displayName) await repo.updateMemberContact(trx, ctx.organisationId, id, { email: model.email, displayName: model.displayName });
    } else {
      await repo.insertPendingMember(trx, { id, organisationId: ctx.organisationId, email: model.email, displayName: model.displayName });
    }
    await repo.insertScimUser(trx, { organisationId: ctx.organisationId, memberId: id, userName: model.userName, externalId: model.externalId, attributes: model.attributes });
    const isActive = existing ? existing.revoked_at === null : true;
    if (isActive !== model.active) await setActive(trx, ctx, id, model.active);
    return id;
  });
  return readUser(db, ctx, memberId);
}

/** GET /Users/{id}, with only the attributes asked for (attributes, excludedAttributes). */
export async function getUser(db: Kysely<DB>, ctx: ScimContext, memberId: string, query: AttributeQuery = {}): Promise<ScimUser> {
  const selection = attributeSelection(query);
  return selectAttributes(await readUser(db, ctx, memberId), selection);
}

/** GET /Users: filter, startIndex (1-based; below 1 counts as 1) and count (0 to SCIM_MAX_RESULTS; more is lowered). */
export async function listUsers(db: Kysely<DB>, ctx: ScimContext, query: { filter?: string; startIndex?: string; count?: string } & AttributeQuery) {
  const selection = attributeSelection(query);
  const criteria: UserCriteria = query.filter !== undefined && query.filter.trim() !== '' ? parseUserFilter(query.filter) : {};
  const { startIndex, count } = listWindow(query);
  const { rows, total } = await repo.listUsers(db, ctx.organisationId, criteria, { offset: startIndex - 1, limit: count });
  return {
    schemas: [SCIM_LIST_SCHEMA],
    totalResults: total,
    startIndex,
    itemsPerPage: rows.length,
    Resources: rows.map((row) => selectAttributes(presentScimUser(row, ctx.baseUrl), selection)),
  };
}

/** Attributes compared by value: jsonb gives its keys back in its own order. */
function sameAttributes(a: ScimUserAttributes, b: ScimUserAttributes): boolean {
  const canonical = (value: ScimUserAttributes) => JSON.stringify(Object.entries(value).filter(([, v]) => v !== undefined).sort(([x], [y]) => x.localeCompare(y)));
  return canonical(a) === canonical(b);
}

/** Writes the model over the current user: contact, SCIM attributes, then status. Refusals before any write. */
async function writeModel(trx: Transaction<DB>, ctx: ScimContext, current: ScimUserRow, next: ScimUserModel): Promise<void> {
  const memberId = current.member_id;
  if (next.userName.toLowerCase() !== current.user_name.toLowerCase() && (await repo.findByUserName(trx, ctx.organisationId, next.userName, memberId))) {
    throw duplicate(`A user with the userName ${next.userName} already exists`);
  }
  if (next.email !== current.email) {
    const holder = await repo.findMemberByEmail(trx, ctx.organisationId, next.email);
    if (holder && holder.id !== memberId) throw duplicate(`The e-mail ${next.email} already belongs to another user of this organisation`);
  }
  const changed: string[] = [];
  if (next.email !== current.email) changed.push('email');
  if (next.displayName !== current.display_name) changed.push('displayName');
  if (next.userName !== current.user_name) changed.push('userName');
  if (next.externalId !== current.external_id) changed.push('externalId');
  if (sameAttributes(next.attributes, current.attributes) === false) changed.push('attributes');
  if (changed.includes('email') || changed.includes('displayName')) {
    await repo.updateMemberContact(trx, ctx.organisationId, memberId, { email: next.email, displayName: next.displayName });
  }
  if (changed.some((c) => c === 'userName' || c === 'externalId' || c === 'attributes')) {
    await repo.updateScimUser(trx, ctx.organisationId, memberId, { userName: next.userName, externalId: next.externalId, attributes: next.attributes });
  }
  if (changed.length) await audit(trx, ctx, 'scim.user.updated', memberId, { changed });
  if (next.active !== (current.revoked_at === null)) await setActive(trx, ctx, memberId, next.active);
  // Admins are kept by address: a new address moves the admin a group made.
  else if (changed.includes('email')) await syncGroupRoles(trx, ctx, [memberId]);
}

async function update(db: Kysely<DB>, ctx: ScimContext, memberId: string, next: (current: ScimUserRow) => ScimUserModel): Promise<ScimUser> {
  await writing(db, async (trx) => {
    const current = await repo.findUser(trx, ctx.organisationId, memberId, { lock: true });
    if (!current) throw notFound();
    await writeModel(trx, ctx, current, next(current));
  });
  return readUser(db, ctx, memberId);
}

/** PUT /Users/{id}: the whole resource. An `id` in the body other than the path's is refused (mutability). */
export async function replaceUser(db: Kysely<DB>, ctx: ScimContext, memberId: string, body: unknown): Promise<ScimUser> {
  if (typeof body === 'object' && body !== null && 'id' in body && (body as { id: unknown }).id !== memberId) {
    throw appError('scim_mutability', { message: 'id cannot be changed' });
  }
  const model = parseScimUser(body);
  return update(db, ctx, memberId, () => model);
}

/** PATCH /Users/{id}: the operations applied to the resource as it is, then checked as a PUT would be. */
export async function patchUser(db: Kysely<DB>, ctx: ScimContext, memberId: string, body: unknown): Promise<ScimUser> {
  return update(db, ctx, memberId, (current) => parseScimUser(applyPatch(presentScimUser(current, ctx.baseUrl), body)));
}

/**
 * DELETE /Users/{id}: the teacher is removed from the organisation as the Teachers screen removes them (Inactive, the
 * licence given back, books kept), and the provider no longer manages them: the id answers 404 from now on.
 */
export async function deleteUser(db: Kysely<DB>, ctx: ScimContext, memberId: string): Promise<void> {
  await writing(db, async (trx) => {
    const current = await repo.findUser(trx, ctx.organisationId, memberId, { lock: true });
    if (!current) throw notFound();
    await revokeMembers(trx, ctx.organisationId, [memberId]);
    // Its group memberships go with it, and so does an admin a group made.
    await repo.deleteScimUser(trx, ctx.organisationId, memberId);
    await syncGroupRoles(trx, ctx, [memberId]);
    await audit(trx, ctx, 'scim.user.deleted', memberId, { userName: current.user_name });
  });
}
