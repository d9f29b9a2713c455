import type { GraphqlContext, GraphqlModule } from '../graphql/graphql.context.js';
import { requireGraphqlActor } from '../graphql/graphql.context.js';
import { renameOrganisation } from './rename-organisation.service.js';

/** renameOrganisation (the licence dashboard's editable name). */
export const organisationsAdminGraphql: GraphqlModule = {
  name: 'organisations-admin',
  typeDefs: /* GraphQL */ `
    type RenamedOrganisation {
      id: ID!
      name: String!
    }
    extend type Mutation {
      "Trimmed, 1 to 128 characters."
      renameOrganisation(orgId: ID!, name: String!): RenamedOrganisation!
    }
  `,
  resolvers: {
    Mutation: {
      renameOrganisation: (_root: unknown, args: { orgId: string; name: string }, ctx: GraphqlContext) =>
        renameOrganisation(ctx.db, requireGraphqlActor(ctx), { organisationId: args.orgId, name: args.name }),
    },
  },
};
