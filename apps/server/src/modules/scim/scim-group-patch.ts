import { parse as parseFilter } from 'scim2-parse-filter';
import { appError } from '../../errors.js';
import { memberIdsOf, type ScimGroupModel } from './scim-group.js';
import { operationsOf } from './scim-patch.js';
import { SCIM_GROUP_SCHEMA } from './scim-schema.js';

/**
 * PATCH (RFC 7644 §3.5.2) on a Group, in the forms Entra ID and Okta send: `displayName` or `externalId` replaced by
 * path; members added with `path: "members"` and a list; members removed by `members[value eq "id"]` (Okta) or by
 * `path: "members"` with a list of the ones to remove (Entra ID), or all of them without a value; a replace without a
 * path carrying `{ id, displayName }` (Okta). The result is checked as a PUT body would be.
 */

const invalidPath = (message: string) => appError('scim_invalid_path', { message });

/** The user id a `members[value eq "id"]` path selects. */
function memberSelected(path: string, filterText: string): string {
  let filter;
  try {
    filter = parseFilter(filterText);
  } catch {
    throw invalidPath(`The filter in '${path}' is not valid`);
  }
  if (filter.op !== 'eq' || !('attrPath' in filter) || filter.attrPath.toLowerCase() !== 'value' || typeof filter.compValue !== 'string') {
    throw invalidPath(`'${path}': only members[value eq "id"] is supported`);
  }
  return filter.compValue;
}

function applyOne(group: ScimGroupModel & { id: string }, op: string, rawPath: string, value: unknown): void {
  const path = rawPath.trim().replace(new RegExp(`^${SCIM_GROUP_SCHEMA.replace(/[.:]/g, '\\$&')}:`, 'i'), '');
  const lower = path.toLowerCase();
  if (lower === 'id' || lower === 'meta' || lower.startsWith('meta.')) {
    // Okta's replace without a path repeats the group's id: the same id changes nothing.
    if (lower === 'id' && value === group.id) return;
    throw appError('scim_mutability', { message: `${path} cannot be changed` });
  }
  if (lower === 'schemas') return;
  if (lower === 'displayname' || lower === 'externalid') {
    const key = lower === 'displayname' ? 'displayName' : 'externalId';
    if (op === 'remove') {
      if (key === 'displayName') throw appError('scim_mutability', { message: 'displayName is required and cannot be removed' });
      group.externalId = null;
      return;
    }
    if (typeof value !== 'string') throw appError('scim_invalid_value', { message: `${key} must be a string` });
    group[key] = value;
    return;
  }
  const filtered = /^members\[(.+)\]$/i.exec(path);
  if (filtered) {
    if (op !== 'remove') throw invalidPath(`'${path}': add members with the path members and a list`);
    const id = memberSelected(path, filtered[1] ?? '');
    group.members = group.members.filter((m) => m !== id);
    return;
  }
  if (lower !== 'members') throw invalidPath(`'${path}' is not a Group attribute that can be changed`);
  if (op === 'remove') {
    if (value === undefined || value === null) group.members = [];
    else {
      const leaving = new Set(memberIdsOf(value));
      group.members = group.members.filter((m) => !leaving.has(m));
    }
    return;
  }
  const incoming = memberIdsOf(value);
  group.members = op === 'replace' ? incoming : [...new Set([...group.members, ...incoming])];
}

/** The group after the PatchOp body's operations, in order; refused as a whole on the first bad operation. */
export function applyGroupPatch(current: ScimGroupModel & { id: string }, body: unknown): ScimGroupModel {
  const group = { ...current, members: [...current.members] };
  for (const { op, path, value } of operationsOf(body)) {
    if (path !== undefined && path.trim() !== '') {
      applyOne(group, op, path, value);
      continue;
    }
    if (op === 'remove') throw invalidPath('A remove operation needs a path');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw appError('scim_invalid_value', { message: `An ${op} without a path needs an object of attributes as its value` });
    }
    for (const [key, v] of Object.entries(value)) applyOne(group, op, key, v);
  }
  return { displayName: group.displayName, externalId: group.externalId, members: group.members };
}
