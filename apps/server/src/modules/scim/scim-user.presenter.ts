import type { ScimUserAttributes } from '../../db/types.js';
import { SCIM_ENTERPRISE_SCHEMA, SCIM_USER_SCHEMA } from './scim-schema.js';

/** A provisioned member as read for SCIM (scim_users joined to members). */
export interface ScimUserRow {
  member_id: string;
  user_name: string;
  external_id: string | null;
  attributes: ScimUserAttributes;
  created_at: Date | string;
  updated_at: Date | string;
  email: string;
  display_name: string;
  revoked_at: Date | string | null;
  member_updated_at: Date | string;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** A SCIM resource as answered: its schemas and attributes. */
export type ScimResource = { schemas: string[] } & Record<string, unknown>;

/** The SCIM User resource (RFC 7643 §4.1) of a provisioned member; attributes without a value are left out. */
export function presentScimUser(row: ScimUserRow, baseUrl: string): ScimResource {
  const { givenName, familyName, formatted, employeeNumber, department } = row.attributes;
  const name = Object.fromEntries(Object.entries({ givenName, familyName, formatted }).filter(([, v]) => v !== undefined));
  const enterprise = Object.fromEntries(Object.entries({ employeeNumber, department }).filter(([, v]) => v !== undefined));
  const lastModified = new Date(Math.max(new Date(row.updated_at).getTime(), new Date(row.member_updated_at).getTime()));
  return {
    schemas: Object.keys(enterprise).length ? [SCIM_USER_SCHEMA, SCIM_ENTERPRISE_SCHEMA] : [SCIM_USER_SCHEMA],
    id: row.member_id,
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    userName: row.user_name,
    ...(Object.keys(name).length ? { name } : {}),
    ...(row.display_name ? { displayName: row.display_name } : {}),
    active: row.revoked_at === null,
    emails: [{ value: row.email, type: 'work', primary: true }],
    ...(Object.keys(enterprise).length ? { [SCIM_ENTERPRISE_SCHEMA]: enterprise } : {}),
    meta: { resourceType: 'User', created: iso(row.created_at), lastModified: lastModified.toISOString(), location: `${baseUrl}/Users/${row.member_id}` },
  };
}
