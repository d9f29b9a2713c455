import { filter as compileFilter, parse as parseFilter, type Filter } from 'scim2-parse-filter';
import { normaliseEmail } from '@quire/core';
import { appError } from '../../errors.js';
import { SCIM_TEXT_MAX } from './scim-schema.js';

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

function set<K extends keyof UserCriteria>(criteria: UserCriteria, key: K, value: UserCriteria[K]): void {
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

/** The conditions of a filter, or 400 invalidFilter. */
export function parseUserFilter(text: string): UserCriteria {
  if (text.length > MAX_FILTER_LENGTH) throw invalidFilter(`A filter can be at most ${MAX_FILTER_LENGTH} characters`);
  let ast: Filter;
  try {
    ast = parseFilter(text);
  } catch {
    throw invalidFilter(`The filter '${text.slice(0, 100)}' is not valid SCIM filter syntax`);
  }
  const criteria: UserCriteria = {};
  collect(ast, criteria);
  return criteria;
}
