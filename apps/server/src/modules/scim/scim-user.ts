import { INPUT_LIMITS, isValidEmail, normaliseEmail } from '@quire/core';
import type { ScimUserAttributes } from '../../db/types.js';
import { appError } from '../../errors.js';
import { isObject, resourceBody } from './scim-body.js';
import { SCIM_ENTERPRISE_SCHEMA, SCIM_TEXT_MAX, SCIM_USER_SCHEMA } from './scim-schema.js';

/**
 * A SCIM User as Quire keeps it: the member's e-mail, name and status, plus the SCIM attributes members has no
 * column for. Parsing a SCIM User body (POST, PUT, or the result of a PATCH) gives this model or a SCIM refusal.
 */
export interface ScimUserModel {
  userName: string;
  externalId: string | null;
  active: boolean;
  displayName: string;
  /** The member's e-mail (lower-case). */
  email: string;
  attributes: ScimUserAttributes;
}

/** Core User attributes Quire keeps. */
const KEPT = ['userName', 'externalId', 'active', 'displayName', 'name', 'emails'] as const;
/** Read-only attributes a provider may echo back; ignored on input (RFC 7643 §2.2). */
const READ_ONLY = ['id', 'meta', 'groups', 'schemas'] as const;
/**
 * Attributes of RFC 7643's User that Quire has no use for: accepted and not kept, so a provider's default mapping
 * (Okta sends password and locale, Entra ID title and addresses) works unchanged. /Schemas lists only what is kept.
 */
const IGNORED = [
  'nickName', 'profileUrl', 'title', 'userType', 'preferredLanguage', 'locale', 'timezone', 'password', 'phoneNumbers', 'ims',
  'photos', 'addresses', 'entitlements', 'roles', 'x509Certificates',
] as const;
/** Name parts kept; middle names and honorifics are accepted and not kept. */
const NAME_PARTS = ['givenName', 'familyName', 'formatted'] as const;
const IGNORED_NAME_PARTS = ['middleName', 'honorificPrefix', 'honorificSuffix'];
/** Enterprise extension attributes kept; the others of RFC 7643 §4.3 are accepted and not kept. */
const ENTERPRISE_KEPT = ['employeeNumber', 'department'] as const;
const ENTERPRISE_IGNORED = ['costCenter', 'organization', 'division', 'manager'];

/** Canonical attribute names by lower-case name: SCIM attribute names are case-insensitive. */
const CANONICAL = new Map<string, string>(
  [...KEPT, ...READ_ONLY, ...IGNORED, SCIM_ENTERPRISE_SCHEMA].map((name) => [name.toLowerCase(), name]),
);

export function canonicalAttribute(name: string): string | undefined {
  return CANONICAL.get(name.toLowerCase());
}

export function isIgnoredAttribute(name: string): boolean {
  return (IGNORED as readonly string[]).includes(name);
}

function isKeptNamePart(name: string): name is (typeof NAME_PARTS)[number] {
  return (NAME_PARTS as readonly string[]).includes(name);
}

export function namePartOf(name: string): string | undefined {
  return [...NAME_PARTS, ...IGNORED_NAME_PARTS].find((part) => part.toLowerCase() === name.toLowerCase());
}

export function enterpriseAttributeOf(name: string): string | undefined {
  return [...ENTERPRISE_KEPT, ...ENTERPRISE_IGNORED].find((part) => part.toLowerCase() === name.toLowerCase());
}

const invalidValue = (message: string) => appError('scim_invalid_value', { message });

/** A string attribute: trimmed, at most SCIM_TEXT_MAX characters; null/absent/empty → undefined. */
function text(value: unknown, attribute: string, max = SCIM_TEXT_MAX): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidValue(`${attribute} must be a string`);
  const trimmed = value.trim();
  if (trimmed.length > max) throw invalidValue(`${attribute} can be at most ${max} characters`);
  return trimmed === '' ? undefined : trimmed;
}

/** `active` as a boolean, or the strings "True"/"False" some providers send (Entra ID does, in any case). */
export function booleanValue(value: unknown, attribute: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  throw invalidValue(`${attribute} must be true or false`);
}

/** The e-mail a member is known by: the work address, else the primary, else the first; else userName when it is one. */
function pickEmail(emails: unknown, userName: string): string {
  let chosen: string | undefined;
  if (emails !== undefined && emails !== null) {
    if (!Array.isArray(emails)) throw invalidValue('emails must be an array');
    const entries = emails.map((entry, index) => {
      if (!isObject(entry)) throw invalidValue(`emails[${index}] must be an object`);
      return { value: text(entry.value, `emails[${index}].value`), type: typeof entry.type === 'string' ? entry.type.toLowerCase() : '', primary: entry.primary === true || entry.primary === 'True' || entry.primary === 'true' };
    }).filter((entry) => entry.value !== undefined);
    chosen = (entries.find((e) => e.type === 'work') ?? entries.find((e) => e.primary) ?? entries[0])?.value;
  }
  const email = normaliseEmail(chosen ?? userName);
  if (!isValidEmail(email)) {
    throw invalidValue(chosen ? `${chosen} is not a valid e-mail address` : 'A teacher needs an e-mail address: send emails, or a userName that is an e-mail address');
  }
  return email;
}

/**
 * A SCIM User body as the model, or a 400 naming the problem. Unknown attributes (not RFC 7643's User, not the
 * enterprise extension) are refused rather than silently dropped, so a mapping mistake shows in the provider's log.
 */
export function parseScimUser(body: unknown): ScimUserModel {
  const resource = resourceBody(body, 'User', SCIM_USER_SCHEMA);
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(resource)) {
    const name = canonicalAttribute(key);
    if (!name) throw invalidValue(`Unknown attribute '${key}'`);
    fields[name] = value;
  }
  const userName = text(fields.userName, 'userName');
  if (!userName) throw invalidValue('userName is required');
  const name = fields.name;
  if (name !== undefined && name !== null && !isObject(name)) throw invalidValue('name must be an object');
  const attributes: ScimUserAttributes = {};
  for (const [key, value] of Object.entries(isObject(name) ? name : {})) {
    const part = namePartOf(key);
    if (!part) throw invalidValue(`Unknown attribute 'name.${key}'`);
    const kept = isKeptNamePart(part) ? text(value, `name.${part}`) : undefined;
    if (kept !== undefined && isKeptNamePart(part)) attributes[part] = kept;
  }
  const enterprise = fields[SCIM_ENTERPRISE_SCHEMA];
  if (enterprise !== undefined && enterprise !== null && !isObject(enterprise)) throw invalidValue(`${SCIM_ENTERPRISE_SCHEMA} must be an object`);
  for (const [key, value] of Object.entries(isObject(enterprise) ? enterprise : {})) {
    const attribute = enterpriseAttributeOf(key);
    if (!attribute) throw invalidValue(`Unknown attribute '${SCIM_ENTERPRISE_SCHEMA}:${key}'`);
    if (attribute === 'employeeNumber' || attribute === 'department') {
      const kept = text(value, attribute);
      if (kept !== undefined) attributes[attribute] = kept;
    }
  }
  const given = [attributes.givenName, attributes.familyName].filter(Boolean).join(' ');
  const displayName = text(fields.displayName, 'displayName', INPUT_LIMITS.displayNameMax) ?? attributes.formatted ?? given;
  if (displayName.length > INPUT_LIMITS.displayNameMax) throw invalidValue(`displayName can be at most ${INPUT_LIMITS.displayNameMax} characters`);
  return {
    userName,
    externalId: text(fields.externalId, 'externalId') ?? null,
    active: fields.active === undefined || fields.active === null ? true : booleanValue(fields.active, 'active'),
    displayName,
    email: pickEmail(fields.emails, userName),
    attributes,
  };
}
