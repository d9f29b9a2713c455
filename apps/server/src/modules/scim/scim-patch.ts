import { filter as compileFilter, parse as parseFilter, type Filter } from 'scim2-parse-filter';
import { appError } from '../../errors.js';
import { isObject } from './scim-body.js';
import {
  booleanValue, canonicalAttribute, enterpriseAttributeOf, isIgnoredAttribute, namePartOf,
} from './scim-user.js';
import { SCIM_ENTERPRISE_SCHEMA, SCIM_MAX_PATCH_OPERATIONS, SCIM_PATCH_SCHEMA, SCIM_USER_SCHEMA } from './scim-schema.js';

/**
 * PATCH (RFC 7644 §3.5.2) on a User, as Entra ID and Okta send it: add / replace / remove (any case); a path, or no
 * path and an object of attributes (whose keys may themselves be paths, `name.givenName` or a URN-qualified enterprise
 * attribute); `emails[type eq "work"].value`; `active` as "False". Applied to the resource's JSON, which is then
 * parsed like a PUT body, so every rule of a full update holds for a patch too.
 */

type Json = Record<string, unknown>;
type Op = 'add' | 'replace' | 'remove';

const invalidPath = (message: string) => appError('scim_invalid_path', { message });
const invalidSyntax = (message: string) => appError('scim_invalid_syntax', { message });

/** The operations of a PatchOp body, checked (Users and Groups alike). */
export function operationsOf(body: unknown): Array<{ op: Op; path?: string; value?: unknown }> {
  if (!isObject(body)) throw invalidSyntax('The body must be a SCIM PatchOp message');
  const schemas = body.schemas;
  if (!Array.isArray(schemas) || !schemas.includes(SCIM_PATCH_SCHEMA)) throw invalidSyntax(`schemas must include ${SCIM_PATCH_SCHEMA}`);
  const key = Object.keys(body).find((k) => k.toLowerCase() === 'operations');
  const operations = key ? body[key] : undefined;
  if (!Array.isArray(operations) || operations.length === 0) throw invalidSyntax('Operations must be a non-empty array');
  if (operations.length > SCIM_MAX_PATCH_OPERATIONS) throw invalidSyntax(`A PATCH can carry at most ${SCIM_MAX_PATCH_OPERATIONS} operations`);
  return operations.map((operation, index) => {
    if (!isObject(operation)) throw invalidSyntax(`Operations[${index}] must be an object`);
    const op = typeof operation.op === 'string' ? operation.op.toLowerCase() : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove') throw invalidSyntax(`Operations[${index}].op must be add, replace or remove`);
    if (operation.path !== undefined && typeof operation.path !== 'string') throw invalidPath(`Operations[${index}].path must be a string`);
    return { op, path: operation.path as string | undefined, value: operation.value };
  });
}

/** A path split into attribute, optional value filter and optional sub-attribute; URN prefixes resolved. */
interface ParsedPath {
  /** 'enterprise' for the enterprise extension's attributes. */
  attribute: string;
  filter?: Filter;
  sub?: string;
}

const PATH = /^([A-Za-z][\w$-]*)(?:\[(.+)\])?(?:\.([A-Za-z][\w$-]*))?$/;

function parsePath(raw: string): ParsedPath {
  const path = raw.trim();
  const lower = path.toLowerCase();
  const enterprisePrefix = SCIM_ENTERPRISE_SCHEMA.toLowerCase();
  if (lower === enterprisePrefix) return { attribute: 'enterprise' };
  if (lower.startsWith(`${enterprisePrefix}:`)) {
    const rest = path.slice(enterprisePrefix.length + 1);
    const [head, sub] = rest.split('.', 2) as [string, string | undefined];
    const attribute = enterpriseAttributeOf(head);
    if (!attribute) throw invalidPath(`Unknown attribute '${path}'`);
    return { attribute: 'enterprise', sub: sub === undefined ? attribute : `${attribute}.${sub}` };
  }
  const corePrefix = `${SCIM_USER_SCHEMA.toLowerCase()}:`;
  const local = lower.startsWith(corePrefix) ? path.slice(corePrefix.length) : path;
  const match = PATH.exec(local);
  if (!match) throw invalidPath(`The path '${path}' is not valid`);
  const [, head = '', filterText, sub] = match;
  let filter: Filter | undefined;
  if (filterText !== undefined) {
    try {
      filter = parseFilter(filterText);
    } catch {
      throw invalidPath(`The filter in '${path}' is not valid`);
    }
  }
  const attribute = canonicalAttribute(head);
  if (!attribute || attribute === 'schemas' || attribute === SCIM_ENTERPRISE_SCHEMA) throw invalidPath(`Unknown attribute '${path}'`);
  return { attribute, filter, sub };
}

/** Entries of a multi-valued attribute that a value filter selects (every entry without a filter). */
function selects(filter: Filter | undefined): (entry: unknown) => boolean {
  if (!filter) return () => true;
  const test = compileFilter(filter);
  return (entry) => isObject(entry) && test(entry);
}

/** The `type` a filter such as `type eq "work"` names: a new entry it selects gets it. */
function typeNamedBy(filter: Filter | undefined): string | undefined {
  if (filter && filter.op === 'eq' && 'attrPath' in filter && filter.attrPath.toLowerCase() === 'type' && typeof filter.compValue === 'string') {
    return filter.compValue;
  }
  return undefined;
}

function applyEmails(resource: Json, op: Op, path: ParsedPath, value: unknown): void {
  const current = Array.isArray(resource.emails) ? (resource.emails as unknown[]) : [];
  const matches = selects(path.filter);
  if (!path.filter && !path.sub) {
    if (op === 'remove') resource.emails = [];
    else {
      const incoming = Array.isArray(value) ? value : [value];
      // Quire keeps one address: the one added or replaced becomes it.
      resource.emails = op === 'add' ? [...incoming, ...current] : incoming;
    }
    return;
  }
  const sub = path.sub ?? undefined;
  if (op === 'remove') {
    resource.emails = sub ? current.map((e) => (matches(e) && isObject(e) ? { ...e, [sub]: undefined } : e)) : current.filter((e) => !matches(e));
    return;
  }
  const selected = current.filter(matches);
  if (selected.length === 0) {
    const type = typeNamedBy(path.filter);
    const entry = sub ? { ...(type ? { type } : {}), [sub]: value } : isObject(value) ? { ...(type ? { type } : {}), ...value } : { value };
    resource.emails = [entry, ...current];
    return;
  }
  resource.emails = current.map((e) => {
    if (!matches(e) || !isObject(e)) return e;
    if (sub) return { ...e, [sub]: value };
    return isObject(value) ? { ...e, ...value } : e;
  });
}

function applyComplex(resource: Json, key: string, op: Op, sub: string | undefined, value: unknown, resolve: (name: string) => string | undefined, label: string): void {
  const current = isObject(resource[key]) ? { ...(resource[key] as Json) } : {};
  if (sub !== undefined) {
    const [head, rest] = sub.split('.', 2) as [string, string | undefined];
    const part = resolve(head);
    if (!part) throw invalidPath(`Unknown attribute '${label}.${sub}'`);
    // An enterprise manager's sub-attributes (manager.value) are accepted and not kept.
    if (rest !== undefined) return;
    if (op === 'remove') delete current[part];
    else current[part] = value;
  } else if (op === 'remove') {
    resource[key] = undefined;
    return;
  } else {
    if (!isObject(value)) throw appError('scim_invalid_value', { message: `${label} must be an object` });
    for (const [k, v] of Object.entries(value)) {
      const part = resolve(k);
      if (!part) throw appError('scim_invalid_value', { message: `Unknown attribute '${label}.${k}'` });
      current[part] = v;
    }
  }
  resource[key] = current;
}

function applyOne(resource: Json, op: Op, rawPath: string, value: unknown): void {
  const path = parsePath(rawPath);
  if (op !== 'remove' && value === undefined) throw appError('scim_invalid_value', { message: `The ${op} of '${rawPath}' has no value` });
  switch (path.attribute) {
    case 'id':
    case 'meta':
    case 'groups':
      throw appError('scim_mutability', { message: `${path.attribute} cannot be changed` });
    case 'emails':
      return applyEmails(resource, op, path, value);
    case 'name':
      return applyComplex(resource, 'name', op, path.sub, value, namePartOf, 'name');
    case 'enterprise':
      return applyComplex(resource, SCIM_ENTERPRISE_SCHEMA, op, path.sub, value, enterpriseAttributeOf, SCIM_ENTERPRISE_SCHEMA);
    default:
      if (path.filter || path.sub) {
        if (isIgnoredAttribute(path.attribute)) return;
        throw invalidPath(`'${rawPath}' is not a valid path`);
      }
      if (isIgnoredAttribute(path.attribute)) return;
      if (op === 'remove') {
        delete resource[path.attribute];
      } else {
        // Checked here so the refusal names the operation; the parse after the patch checks it again.
        resource[path.attribute] = path.attribute === 'active' ? booleanValue(value, 'active') : value;
      }
  }
}

/** The resource after the PatchOp body's operations, in order; refused as a whole on the first bad operation. */
export function applyPatch(resource: Json, body: unknown): Json {
  const result: Json = structuredClone(resource);
  for (const { op, path, value } of operationsOf(body)) {
    if (path !== undefined && path.trim() !== '') {
      applyOne(result, op, path, value);
      continue;
    }
    if (op === 'remove') throw appError('scim_invalid_path', { message: 'A remove operation needs a path' });
    if (!isObject(value)) throw appError('scim_invalid_value', { message: `An ${op} without a path needs an object of attributes as its value` });
    for (const [key, v] of Object.entries(value)) {
      if (key.toLowerCase() === SCIM_ENTERPRISE_SCHEMA.toLowerCase() && isObject(v)) {
        applyComplex(result, SCIM_ENTERPRISE_SCHEMA, op, undefined, v, enterpriseAttributeOf, SCIM_ENTERPRISE_SCHEMA);
      } else {
        applyOne(result, op, key, v);
      }
    }
  }
  if (!Array.isArray(result.schemas) || !result.schemas.includes(SCIM_USER_SCHEMA)) result.schemas = [SCIM_USER_SCHEMA];
  return result;
}
