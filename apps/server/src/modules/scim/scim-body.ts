import { appError } from '../../errors.js';

/** A JSON object (not null, not an array): what every SCIM message and complex attribute is. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A User or Group body: an object whose `schemas` name the resource's schema (in any case), or 400 invalidSyntax. */
export function resourceBody(body: unknown, resource: 'User' | 'Group', schema: string): Record<string, unknown> {
  if (!isObject(body)) throw appError('scim_invalid_syntax', { message: `The body must be a SCIM ${resource} object` });
  const schemas = body.schemas;
  if (!Array.isArray(schemas) || !schemas.some((s) => typeof s === 'string' && s.toLowerCase() === schema.toLowerCase())) {
    throw appError('scim_invalid_syntax', { message: `schemas must include ${schema}` });
  }
  return body;
}
