import type { AuditAction } from '@quire/core';
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/types.js';
import { appError } from '../../errors.js';
import { attributeSelection, selectAttributes, selectsAttribute, type AttributeQuery } from './scim-attributes.js';
import { recordAudit } from '../access/audit.js';
import { syncGroupRoles } from './scim-library-managers.service.js';
import { scimActor, type ScimContext } from './scim-context.js';
import { listWindow, parseGroupFilter } from './scim-filter.js';
import { parseScimGroup, presentScimGroup, type ScimGroupModel } from './scim-group.js';
import { applyGroupPatch } from './scim-group-patch.js';
import * as repo from './scim-groups.repository.js';
import { isUniqueViolation } from './scim-users.repository.js';
import { SCIM_GROUP_SCHEMA, SCIM_LIST_SCHEMA } from './scim-schema.js';

/**
 * The /Groups resource of the SCIM endpoint (docs/provisioning.md). Groups hold provisioned users of the token's
 * organisation; the one named as the admins group makes its active members the organisation's admins (through the
 * admins module, scim-admins.service.ts), and the one named as the library managers group its library managers
 * (scim-library-managers.service.ts). Every write owns its transaction and is audited with the token as actor.
 */

const notFound = () => appError('scim_group_not_found');
const duplicate = (displayName: string) => appError('scim_uniqueness', { message: `A group named ${displayName} already exists` });

async function writing<T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  try {
    return await db.transaction().execute(work);
  } catch (error) {
    if (isUniqueViolation(error)) throw appError('scim_uniqueness', { message: 'A group with this displayName already exists' });
    throw error;
  }
}

function audit(trx: Transaction<DB>, ctx: ScimContext, action: AuditAction, groupId: string, details: Record<string, unknown> = {}) {
  return recordAudit(trx, scimActor(ctx), { organisationId: ctx.organisationId, action, targetType: 'scim_group', targetIds: [groupId], details: { via: 'scim', tokenId: ctx.tokenId, ...details } });
}

async function readGroup(db: Kysely<DB> | Transaction<DB>, ctx: ScimContext, id: string, withMembers = true) {
  const row = await repo.findGroup(db, ctx.organisationId, id);
  if (!row) throw notFound();
  const members = withMembers ? await repo.listMembers(db, ctx.organisationId, [id]) : null;
  return presentScimGroup(row, members, ctx.baseUrl);
}

/** Refuses members that are not the organisation's provisioned users (another organisation's ids included). */
async function checkMembers(trx: Transaction<DB>, ctx: ScimContext, memberIds: readonly string[]): Promise<void> {
  const known = await repo.existingUsers(trx, ctx.organisationId, memberIds);
  const unknown = memberIds.filter((id) => !known.has(id));
  if (unknown.length) throw appError('scim_invalid_value', { message: `No user with the id ${unknown.slice(0, 3).join(', ')} in this organisation` });
}

/** Writes the model over the group (or the new group): name, members, then the admins and library managers it makes. */
async function writeGroup(trx: Transaction<DB>, ctx: ScimContext, id: string, current: (ScimGroupModel & { isNew: boolean }), next: ScimGroupModel): Promise<void> {
  if (next.displayName.toLowerCase() !== current.displayName.toLowerCase() || current.isNew) {
    if (await repo.findByDisplayName(trx, ctx.organisationId, next.displayName, id)) throw duplicate(next.displayName);
  }
  await checkMembers(trx, ctx, next.members);
  if (current.isNew) await repo.insertGroup(trx, { organisationId: ctx.organisationId, id, displayName: next.displayName, externalId: next.externalId });
  else if (next.displayName !== current.displayName || next.externalId !== current.externalId) {
    await repo.updateGroup(trx, ctx.organisationId, id, { displayName: next.displayName, externalId: next.externalId });
  }
  const before = new Set(current.members);
  const after = new Set(next.members);
  const added = next.members.filter((m) => !before.has(m));
  const removed = current.members.filter((m) => !after.has(m));
  await repo.addMembers(trx, ctx.organisationId, id, added);
  await repo.removeMembers(trx, ctx.organisationId, id, removed);
  const renamed = !current.isNew && next.displayName !== current.displayName;
  if (current.isNew) await audit(trx, ctx, 'scim.group.created', id, { displayName: next.displayName, members: next.members.length });
  else if (renamed || added.length || removed.length || next.externalId !== current.externalId) {
    await audit(trx, ctx, 'scim.group.updated', id, { ...(renamed ? { displayName: next.displayName } : {}), added, removed });
  }
  // A rename may make a group the admins or library managers group, or stop it being one: then every member counts.
  await syncGroupRoles(trx, ctx, renamed ? [...before, ...after] : [...added, ...removed]);
}

/** POST /Groups: 201; 409 uniqueness when the organisation has a group of that name (without case). */
export async function createGroup(db: Kysely<DB>, ctx: ScimContext, body: unknown) {
  const model = parseScimGroup(body);
  const id = randomUUID();
  await writing(db, (trx) => writeGroup(trx, ctx, id, { displayName: model.displayName, externalId: null, members: [], isNew: true }, model));
  return readGroup(db, ctx, id);
}

/** GET /Groups/{id}, with only the attributes asked for; members are not read when left out (excludedAttributes=members). */
export async function getGroup(db: Kysely<DB>, ctx: ScimContext, id: string, query: AttributeQuery) {
  const selection = attributeSelection(query);
  return selectAttributes(await readGroup(db, ctx, id, selectsAttribute(selection, 'members')), selection);
}

/** GET /Groups: filter (displayName, externalId, id, members[value eq]), startIndex and count, attributes and excludedAttributes. */
export async function listGroups(db: Kysely<DB>, ctx: ScimContext, query: { filter?: string; startIndex?: string; count?: string } & AttributeQuery) {
  const selection = attributeSelection(query);
  const criteria = query.filter !== undefined && query.filter.trim() !== '' ? parseGroupFilter(query.filter) : {};
  const { startIndex, count } = listWindow(query);
  const { rows, total } = await repo.listGroups(db, ctx.organisationId, criteria, { offset: startIndex - 1, limit: count });
  const members = !selectsAttribute(selection, 'members') ? null : await repo.listMembers(db, ctx.organisationId, rows.map((r) => r.id));
  return {
    schemas: [SCIM_LIST_SCHEMA],
    totalResults: total,
    startIndex,
    itemsPerPage: rows.length,
    Resources: rows.map((row) => selectAttributes(presentScimGroup(row, members ? members.filter((m) => m.group_id === row.id) : null, ctx.baseUrl), selection)),
  };
}

async function update(db: Kysely<DB>, ctx: ScimContext, id: string, next: (current: ScimGroupModel) => ScimGroupModel) {
  await writing(db, async (trx) => {
    const row = await repo.findGroup(trx, ctx.organisationId, id, { lock: true });
    if (!row) throw notFound();
    const members = (await repo.listMembers(trx, ctx.organisationId, [id])).map((m) => m.member_id);
    const current = { displayName: row.display_name, externalId: row.external_id, members };
    await writeGroup(trx, ctx, id, { ...current, isNew: false }, next(current));
  });
  return readGroup(db, ctx, id);
}

/** PUT /Groups/{id}: the whole group, its members included. */
export async function replaceGroup(db: Kysely<DB>, ctx: ScimContext, id: string, body: unknown) {
  if (typeof body === 'object' && body !== null && 'id' in body && (body as { id: unknown }).id !== id) {
    throw appError('scim_mutability', { message: 'id cannot be changed' });
  }
  const model = parseScimGroup(body);
  return update(db, ctx, id, () => model);
}

/** PATCH /Groups/{id}: the operations applied to the group, then checked as a PUT would be. */
export async function patchGroup(db: Kysely<DB>, ctx: ScimContext, id: string, body: unknown) {
  return update(db, ctx, id, (current) => {
    const next = applyGroupPatch({ ...current, id }, body);
    return parseScimGroup({ schemas: [SCIM_GROUP_SCHEMA], displayName: next.displayName, externalId: next.externalId, members: next.members.map((value) => ({ value })) });
  });
}

/** DELETE /Groups/{id}: 204; its members stay teachers, and lose what the group made them (admins, library managers). */
export async function deleteGroup(db: Kysely<DB>, ctx: ScimContext, id: string): Promise<void> {
  await writing(db, async (trx) => {
    const row = await repo.findGroup(trx, ctx.organisationId, id, { lock: true });
    if (!row) throw notFound();
    const members = (await repo.listMembers(trx, ctx.organisationId, [id])).map((m) => m.member_id);
    await repo.deleteGroup(trx, ctx.organisationId, id);
    await syncGroupRoles(trx, ctx, members);
    await audit(trx, ctx, 'scim.group.deleted', id, { displayName: row.display_name, members: members.length });
  });
}
