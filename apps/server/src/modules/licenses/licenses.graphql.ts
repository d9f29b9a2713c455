import type { GraphqlContext, GraphqlModule } from '../graphql/graphql.context.js';
import { requireGraphqlActor } from '../graphql/graphql.context.js';
import { withIdempotency } from '../access/idempotency.js';
import { getOrganisationLicenses } from './license-allocations.service.js';
import { assignLicense, removeLicenses } from './licenses.service.js';

/**
 * Licences in the organisation service: Organisation.licenses (the licence dashboard, with a district's allocations)
 * and the assignment mutations (docs/teachers-api.md, docs/districts.md).
 */
export const licensesGraphql: GraphqlModule = {
  name: 'licenses',
  typeDefs: /* GraphQL */ `
    "One school's share of a district licence."
    type LicenseAllocation {
      "The school (directly below the district)."
      organisationId: ID!
      organisationName: String!
      "Seats allocated to the school: what it may assign to its own teachers."
      seats: Int!
      "Seats of the allocation in use at the school."
      assigned: Int!
    }

    "Where a school's licence comes from when it is a share of a district licence."
    type LicenseSource {
      organisationId: ID!
      organisationName: String!
      licenseId: ID!
    }

    type License {
      id: ID!
      name: String!
      "Seats in use: members holding this licence, plus seats allocated to the schools below."
      allocated: Int!
      quantity: Int!
      "quantity minus allocated."
      available: Int!
      bookQuota: Int!
      libraryQuota: LibraryQuota!
      applyToAll: Boolean!
      "A school's share of a district licence: the district it comes from (quantity is the share); null otherwise."
      allocatedBy: LicenseSource
      "A district's licence: each school directly below with its allocation (0 seats when none); empty otherwise."
      allocations: [LicenseAllocation!]!
    }

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
    // Loaded only when asked for; access was checked by getOrganisationById.
    Organisation: {
      licenses: (parent: { id: string }, _args: unknown, ctx: GraphqlContext) => getOrganisationLicenses(ctx.db, parent.id),
    },
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
