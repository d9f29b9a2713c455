import { appError } from '../../errors.js';
import { isObject } from './scim-body.js';
import { SCIM_ENTERPRISE_SCHEMA, SCIM_GROUP_SCHEMA, SCIM_USER_SCHEMA } from './scim-schema.js';
import type { ScimResource } from './scim-user.presenter.js';

/**
 * `attributes` and `excludedAttributes` (RFC 7644 §3.4.2.5, §3.9): which attributes a GET answers. Names compare without
 * case and may be sub-attributes (`name.givenName`, `emails.value`) or URN-qualified (`urn:…:core:2.0:User:userName`,
 * `urn:…:enterprise:2.0:User:department`, or the extension's URN alone for all of it). `id` and `schemas` are
 * returned always (their `returned` is "always"); a name the resource does not have selects nothing.
 */
export interface AttributeQuery {
  attributes?: string;
  excludedAttributes?: string;
}

type Path = readonly string[];

const ALWAYS = new Set(['id', 'schemas']);
/** URNs whose attributes are the resource's own top-level attributes. */
const CORE_SCHEMAS = [SCIM_USER_SCHEMA, SCIM_GROUP_SCHEMA].map((urn) => urn.toLowerCase());
/** Extension URNs: the resource keeps their attributes under the URN itself. */
const EXTENSIONS = [SCIM_ENTERPRISE_SCHEMA];
/** More names than a resource has attributes is no real request: refused rather than walked. */
const MAX_NAMES = 50;

function parsePath(raw: string): Path | null {
  const name = raw.trim();
  if (!name) return null;
  const lower = name.toLowerCase();
  for (const urn of CORE_SCHEMAS) {
    if (lower.startsWith(`${urn}:`)) return name.slice(urn.length + 1).split('.').map((p) => p.toLowerCase());
  }
  for (const urn of EXTENSIONS) {
    const key = urn.toLowerCase();
    if (lower === key) return [key];
    if (lower.startsWith(`${key}:`)) return [key, ...name.slice(key.length + 1).split('.').map((p) => p.toLowerCase())];
  }
  return lower.split('.');
}

function parseList(list: string | undefined, parameter: string): Path[] | null {
  if (list === undefined || list.trim() === '') return null;
  const names = list.split(',');
  if (names.length > MAX_NAMES) throw appError('scim_invalid_value', { message: `${parameter} names at most ${MAX_NAMES} attributes` });
  return names.map(parsePath).filter((p): p is Path => p !== null);
}

/** The paths below `key` (without it), and whether `key` itself was named whole. */
function below(paths: readonly Path[], key: string): { whole: boolean; rest: Path[] } {
  const k = key.toLowerCase();
  const matching = paths.filter((p) => p[0] === k);
  return { whole: matching.some((p) => p.length === 1), rest: matching.filter((p) => p.length > 1).map((p) => p.slice(1)) };
}

function include(value: Record<string, unknown>, paths: readonly Path[], top: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (top && ALWAYS.has(key)) {
      out[key] = item;
      continue;
    }
    const { whole, rest } = below(paths, key);
    if (whole) out[key] = item;
    else if (rest.length && isObject(item)) {
      const sub = include(item, rest, false);
      if (Object.keys(sub).length) out[key] = sub;
    } else if (rest.length && Array.isArray(item)) {
      const subs = item.filter(isObject).map((element) => include(element, rest, false)).filter((sub) => Object.keys(sub).length);
      if (subs.length) out[key] = subs;
    }
  }
  return out;
}

function exclude(value: Record<string, unknown>, paths: readonly Path[], top: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (top && ALWAYS.has(key)) {
      out[key] = item;
      continue;
    }
    const { whole, rest } = below(paths, key);
    if (whole) continue;
    if (rest.length && isObject(item)) out[key] = exclude(item, rest, false);
    else if (rest.length && Array.isArray(item)) out[key] = item.map((element) => (isObject(element) ? exclude(element, rest, false) : element));
    else out[key] = item;
  }
  return out;
}

/** The query's two lists, parsed once for a whole list of resources; null when it names none. */
export function attributeSelection(query: AttributeQuery): { attributes: Path[] | null; excluded: Path[] | null } | null {
  const attributes = parseList(query.attributes, 'attributes');
  const excluded = parseList(query.excludedAttributes, 'excludedAttributes');
  return attributes || excluded ? { attributes, excluded } : null;
}

/** The resource with only the attributes the query asks for; `schemas` then names only the extensions still present. */
export function selectAttributes(resource: ScimResource, selection: ReturnType<typeof attributeSelection>): ScimResource {
  if (!selection) return resource;
  let out: Record<string, unknown> = resource;
  if (selection.attributes) out = include(out, selection.attributes, true);
  if (selection.excluded) out = exclude(out, selection.excluded, true);
  const schemas = resource.schemas.filter((urn) => !EXTENSIONS.includes(urn) || urn in out);
  return { ...out, schemas };
}

/** Whether the query leaves a top-level attribute out, so its reading can be skipped (a group's members). */
export function selectsAttribute(selection: ReturnType<typeof attributeSelection>, name: string): boolean {
  if (!selection) return true;
  const key = name.toLowerCase();
  if (selection.attributes && !selection.attributes.some((p) => p[0] === key)) return false;
  return !(selection.excluded ?? []).some((p) => p.length === 1 && p[0] === key);
}
