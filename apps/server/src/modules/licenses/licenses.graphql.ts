import type { GraphqlContext, GraphqlModule } from '../graphql/graphql.context.js';
import { requireGraphqlActor } from '../graphql/graphql.context.js';
import { withIdempotency } from '../access/idempotency.js';
import { assignLicense, removeLicenses } from './licenses.service.js';

/** Licence mutations of the organisation service (docs/teachers-api.md). */
export const licensesGraphql: GraphqlModule = {
  name: 'licenses',
  typeDefs: /* GraphQL */ `
    type LicenseAssignment {
      licenseId: ID!
      "Members now on the licence who were not before."
      assignedMemberIds: [ID!]!
      allocated: Int!
      available: Int!
    }
    type LicensesRemoved {
      memberIds: [ID!]!
    }
    extend type Mutation {
      "Assign license (the same rule as PUT …/licenses/{licenseId})."
      assignLicenses(orgId: ID!, licenseId: ID!, memberIds: [ID!]!): LicenseAssignment!
      "Remove license."
      removeLicenses(orgId: ID!, memberIds: [ID!]!): LicensesRemoved!
    }
  `,
  resolvers: {
    Mutation: {
      assignLicenses: (_root: unknown, args: { orgId: string; licenseId: string; memberIds: string[] }, ctx: GraphqlContext) => {
        const actor = requireGraphqlActor(ctx);
        return withIdempotency(ctx.db, ctx.request, actor, () =>
          assignLicense(ctx.db, actor, { organisationId: args.orgId, licenseId: args.licenseId, memberIds: args.memberIds }),
        );
      },
      removeLicenses: (_root: unknown, args: { orgId: string; memberIds: string[] }, ctx: GraphqlContext) => {
        const actor = requireGraphqlActor(ctx);
        return withIdempotency(ctx.db, ctx.request, actor, () => removeLicenses(ctx.db, actor, { organisationId: args.orgId, memberIds: args.memberIds }));
      },
    },
  },
};
