import type { FastifyRequest } from 'fastify';
import { appError } from '../../errors.js';

/** Header naming the organisation a teacher call is about (alternative to ?organisationId=). */
const ORGANISATION_HEADER = 'x-organisation-id';

/**
 * The spec's teacher paths carry no organisation, so the console names it: query, header or body.
 * All the values given must agree; one is required.
 */
export function organisationIdOf(request: FastifyRequest, body?: { organisationId?: string } | null): string {
  const query = (request.query as { organisationId?: string } | undefined)?.organisationId;
  const header = request.headers[ORGANISATION_HEADER];
  const values = [query, typeof header === 'string' ? header : undefined, body?.organisationId].filter(
    (v): v is string => typeof v === 'string' && v.trim() !== '',
  );
  const unique = [...new Set(values.map((v) => v.trim()))];
  if (unique.length === 0) throw appError('organisation_required');
  if (unique.length > 1) throw appError('organisation_mismatch');
  return unique[0]!;
}
