import type { IResolvers } from 'mercurius';
import type { GraphqlContext } from './graphql.context.js';

/**
 * Per-field access of the organisation service for the acting roles of spec §6 (docs/security.md,
 * "Library managers"). An organisation admin reads every field; a library manager reads what browsing
 * teachers and their libraries needs, and for these fields gets the empty value instead:
 * - Organisation.admins: the admins' e-mails (the console then treats the manager as read-only).
 * Applied over the merged resolvers, so it holds whichever module defines the field. The access level is
 * the one getOrganisationById decided for the request (`access` of the parent, requireOrgAccess): no field
 * decides it again. Organisation.lti is refused to everyone but admins by the lti module itself (`admin_required`).
 */
const ADMIN_ONLY_ORGANISATION_FIELDS: Record<string, () => unknown> = {
  admins: () => [],
};

type Resolver = (parent: unknown, args: unknown, context: GraphqlContext, info: unknown) => unknown;

const defaultResolver =
  (field: string): Resolver =>
  (parent) =>
    (parent as Record<string, unknown> | null)?.[field];

/** Wraps Organisation's admin-only fields with the access check. */
export function applyFieldAccess(resolvers: IResolvers<never, GraphqlContext>): void {
  const organisation = ((resolvers.Organisation ?? {}) as Record<string, Resolver>);
  for (const [field, emptyValue] of Object.entries(ADMIN_ONLY_ORGANISATION_FIELDS)) {
    const resolve = organisation[field] ?? defaultResolver(field);
    organisation[field] = async (parent, args, context, info) => {
      if ((parent as { access?: unknown } | null)?.access !== 'admin') return emptyValue();
      return resolve(parent, args, context, info);
    };
  }
  resolvers.Organisation = organisation as IResolvers<never, GraphqlContext>[string];
}
