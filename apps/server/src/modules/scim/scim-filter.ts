import { filter as compileFilter, parse as parseFilter, type Filter } from 'scim2-parse-filter';
import { normaliseEmail } from '@quire/core';
import { appError } from '../../errors.js';
import type { GroupCriteria } from './scim-groups.repository.js';
import { SCIM_MAX_RESULTS, SCIM_TEXT_MAX } from './scim-schema.js';

/**
 * A list's `filter` (RFC 7644 §3.4.2.2), parsed by scim2-parse-filter, as conditions the repository turns into SQL
 * with bound parameters (never text pasted into a statement). Supported: `eq` on userName (without case), externalId,
 * id, active, emails.value and `emails[type eq "work"].value`, joined with `and`. Anything else is 400 invalidFilter.
 */
export interface UserCriteria {
  userName?: string;
  externalId?: string;
  id?: string;
  email?: string;
  active?: boolean;
  /** A condition no user meets (a value filter on an e-mail type Quire does not keep). */
  none?: boolean;
}

const MAX_FILTER_LENGTH = 1000;

const invalidFilter = (message: string) => appError('scim_invalid_filter', { message });

/** Every address Quire answers is this entry: a value filter is tested against it. */
const KEPT_EMAIL = { type: 'work', primary: true };

function set<C extends { none?: boolean }, K extends keyof C>(criteria: C, key: K, value: C[K]): void {
  // `a eq "x" and a eq "y"` with x ≠ y matches nobody.
  if (criteria[key] !== undefined && criteria[key] !== value) criteria.none = true;
  criteria[key] = value;
}

function stringValue(value: unknown, attribute: string): string {
  if (typeof value !== 'string' || value.length > SCIM_TEXT_MAX) throw invalidFilter(`${attribute} must be compared with a string`);
  return value;
}

function collect(node: Filter, criteria: UserCriteria): void {
  if (node.op === 'and') {
    for (const child of node.filters) collect(child, criteria);
    return;
  }
  if (node.op === '[]') {
    if (node.attrPath.toLowerCase() !== 'emails') throw invalidFilter(`Filtering on ${node.attrPath}[…] is not supported`);
    // `emails[type eq "work"]` (and `.value eq …`, which the parser splits into this and `emails.value eq …`).
    const { valFilter } = node;
    if (valFilter.op === 'eq' && 'attrPath' in valFilter && valFilter.attrPath.toLowerCase() === 'value') {
      set(criteria, 'email', normaliseEmail(stringValue(valFilter.compValue, 'emails.value')));
      return;
    }
    let keeps: boolean;
    try {
      keeps = compileFilter(valFilter)(KEPT_EMAIL);
    } catch {
      throw invalidFilter('The e-mail value filter is not supported');
    }
    if (!keeps) criteria.none = true;
    return;
  }
  if (node.op !== 'eq') throw invalidFilter(`The operator '${node.op}' is not supported: use eq, and and`);
  const attribute = node.attrPath.toLowerCase().replace(/^urn:ietf:params:scim:schemas:core:2\.0:user:/, '');
  switch (attribute) {
    case 'username':
      return set(criteria, 'userName', stringValue(node.compValue, 'userName').toLowerCase());
    case 'externalid':
      return set(criteria, 'externalId', stringValue(node.compValue, 'externalId'));
    case 'id':
      return set(criteria, 'id', stringValue(node.compValue, 'id'));
    case 'emails':
    case 'emails.value':
      return set(criteria, 'email', normaliseEmail(stringValue(node.compValue, 'emails.value')));
    case 'active':
      if (typeof node.compValue !== 'boolean') throw invalidFilter('active must be compared with true or false');
      return set(criteria, 'active', node.compValue);
    default:
      throw invalidFilter(`Filtering on ${node.attrPath} is not supported: use userName, externalId, id, active or emails`);
  }
}

/** A filter's text parsed and gathered into conditions by `gather`, or 400 invalidFilter. */
function parseCriteria<C extends { none?: boolean }>(text: string, gather: (node: Filter, criteria: C) => void): C {
  if (text.length > MAX_FILTER_LENGTH) throw invalidFilter(`A filter can be at most ${MAX_FILTER_LENGTH} characters`);
  let ast: Filter;
  try {
    ast = parseFilter(text);
  } catch {
    throw invalidFilter(`The filter '${text.slice(0, 100)}' is not valid SCIM filter syntax`);
  }
  const criteria = {} as C;
  gather(ast, criteria);
  return criteria;
}

/** The conditions of a filter, or 400 invalidFilter. */
export function parseUserFilter(text: string): UserCriteria {
  return parseCriteria<UserCriteria>(text, collect);
}

function collectGroup(node: Filter, criteria: GroupCriteria): void {
  if (node.op === 'and') {
    for (const child of node.filters) collectGroup(child, criteria);
    return;
  }
  if (node.op === '[]') {
    // members[value eq "id"]: the groups a user is in.
    const { valFilter } = node;
    if (node.attrPath.toLowerCase() === 'members' && valFilter.op === 'eq' && 'attrPath' in valFilter && valFilter.attrPath.toLowerCase() === 'value') {
      return set(criteria, 'memberId', stringValue(valFilter.compValue, 'members.value'));
    }
    throw invalidFilter(`Filtering on ${node.attrPath}[…] is not supported: use members[value eq "id"]`);
  }
  if (node.op !== 'eq') throw invalidFilter(`The operator '${node.op}' is not supported: use eq, and and`);
  switch (node.attrPath.toLowerCase().replace(/^urn:ietf:params:scim:schemas:core:2\.0:group:/, '')) {
    case 'displayname':
      return set(criteria, 'displayName', stringValue(node.compValue, 'displayName'));
    case 'externalid':
      return set(criteria, 'externalId', stringValue(node.compValue, 'externalId'));
    case 'id':
      return set(criteria, 'id', stringValue(node.compValue, 'id'));
    case 'members.value':
      return set(criteria, 'memberId', stringValue(node.compValue, 'members.value'));
    default:
      throw invalidFilter(`Filtering on ${node.attrPath} is not supported: use displayName, externalId, id or members.value`);
  }
}

/** The conditions of a Groups list's filter (`eq` on displayName without case, externalId, id, members), or 400 invalidFilter. */
export function parseGroupFilter(text: string): GroupCriteria {
  return parseCriteria<GroupCriteria>(text, collectGroup);
}

/** A positive whole number of a query, or the default; anything else is 400 invalidValue. */
function integerParam(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  if (!/^-?\d{1,9}$/.test(value.trim())) throw appError('scim_invalid_value', { message: `${name} must be an integer` });
  return Number(value.trim());
}

/** A list's page: startIndex (1-based; below 1 counts as 1) and count (0 to SCIM_MAX_RESULTS; more is lowered). */
export function listWindow(query: { startIndex?: string; count?: string }): { startIndex: number; count: number } {
  return {
    startIndex: Math.max(1, integerParam(query.startIndex, 'startIndex', 1)),
    count: Math.min(SCIM_MAX_RESULTS, Math.max(0, integerParam(query.count, 'count', SCIM_MAX_RESULTS))),
  };
}
