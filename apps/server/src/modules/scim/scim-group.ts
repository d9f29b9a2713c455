import { appError } from '../../errors.js';
import { isObject, resourceBody } from './scim-body.js';
import type { ScimGroupRow } from './scim-groups.repository.js';
import { SCIM_GROUP_SCHEMA, SCIM_TEXT_MAX } from './scim-schema.js';

/**
 * A SCIM Group (RFC 7643 §4.2) as Quire keeps it: a name, the provider's id for it, and the provisioned users in it.
 * Parsing a Group body (POST, PUT, or the result of a PATCH) gives this model or a SCIM refusal.
 */
export interface ScimGroupModel {
  displayName: string;
  externalId: string | null;
  /** The SCIM ids of the users in the group (members' ids), each once. */
  members: string[];
}

/** Group attributes a provider may send that are read-only (echoed back from a GET): ignored. */
const READ_ONLY = new Set(['id', 'meta', 'schemas']);
const KEPT = new Map(['displayName', 'externalId', 'members'].map((name) => [name.toLowerCase(), name]));
/** The most members one body may name (a body is at most 64 KiB anyway). */
const MAX_MEMBERS = 2000;

const invalidValue = (message: string) => appError('scim_invalid_value', { message });

function text(value: unknown, attribute: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidValue(`${attribute} must be a string`);
  const trimmed = value.trim();
  if (trimmed.length > SCIM_TEXT_MAX) throw invalidValue(`${attribute} can be at most ${SCIM_TEXT_MAX} characters`);
  return trimmed === '' ? undefined : trimmed;
}

/** The user ids of a members value: `[{ value, display?, $ref?, type? }]`; only users may be members. */
export function memberIdsOf(value: unknown, attribute = 'members'): string[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  if (list.length > MAX_MEMBERS) throw invalidValue(`${attribute} can name at most ${MAX_MEMBERS} members at once`);
  const ids = list.map((entry, index) => {
    if (!isObject(entry)) throw invalidValue(`${attribute}[${index}] must be an object with a value`);
    if (typeof entry.type === 'string' && entry.type.toLowerCase() !== 'user') throw invalidValue(`${attribute}[${index}]: only users can be members of a group`);
    const id = text(entry.value, `${attribute}[${index}].value`);
    if (!id) throw invalidValue(`${attribute}[${index}].value is required`);
    return id;
  });
  return [...new Set(ids)];
}

/** A SCIM Group body as the model, or a 400 naming the problem; an attribute Groups do not have is refused. */
export function parseScimGroup(body: unknown): ScimGroupModel {
  const resource = resourceBody(body, 'Group', SCIM_GROUP_SCHEMA);
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(resource)) {
    if (READ_ONLY.has(key)) continue;
    const name = KEPT.get(key.toLowerCase());
    if (!name) throw invalidValue(`Unknown attribute '${key}'`);
    fields[name] = value;
  }
  const displayName = text(fields.displayName, 'displayName');
  if (!displayName) throw invalidValue('displayName is required');
  return { displayName, externalId: text(fields.externalId, 'externalId') ?? null, members: memberIdsOf(fields.members) };
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** The SCIM Group resource of a group; `members` left out when the caller excluded them (excludedAttributes=members). */
export function presentScimGroup(row: ScimGroupRow, members: Array<{ member_id: string; user_name: string }> | null, baseUrl: string) {
  return {
    schemas: [SCIM_GROUP_SCHEMA],
    id: row.id,
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    displayName: row.display_name,
    ...(members ? { members: members.map((m) => ({ value: m.member_id, display: m.user_name, type: 'User', $ref: `${baseUrl}/Users/${m.member_id}` })) } : {}),
    meta: { resourceType: 'Group', created: iso(row.created_at), lastModified: iso(row.updated_at), location: `${baseUrl}/Groups/${row.id}` },
  };
}
