import type { GraphqlContext, GraphqlModule } from '../graphql/graphql.context.js';
import { requireGraphqlActor } from '../graphql/graphql.context.js';
import { generateCredentials, readCredentials, revokeCredentials } from './lti-credentials.service.js';

/** LTI credentials in the organisation service (spec §7): Organisation.lti and the generate / revoke mutations. */
export const ltiGraphql: GraphqlModule = {
  name: 'lti',
  typeDefs: /* GraphQL */ `
    extend type LtiCredentials {
      "Where a learning platform posts LTI 1.1 launches (ends in /lti/launch)."
      launchUrl: String!
      "The launch host's domain."
      domain: String!
      "The LTI cartridge (XML configuration) at the launch host."
      cartridgeUrl: String!
      "How many people launches from a learning platform have created accounts for in the organisation."
      usersCreated: Int!
    }

    extend type Mutation {
      "New LTI 1.1 credentials (admins only); refused (lti_credentials_exist) when the organisation has some."
      generateLTICredentials(orgId: ID!): LtiCredentials!
      "Revokes the organisation's LTI credentials (admins only): launches with the old key are refused at once."
      revokeLTICredentials(orgId: ID!): LtiCredentials!
    }
  `,
  resolvers: {
    Organisation: {
      // Admins only: the secret signs launches, so a library manager (a reader) is refused too.
      lti: (parent: { id: string }, _args: unknown, context: GraphqlContext) =>
        readCredentials(context.db, context.request.server.env, requireGraphqlActor(context), parent.id),
    },
    Mutation: {
      generateLTICredentials: (_root: unknown, args: { orgId: string }, context: GraphqlContext) =>
        generateCredentials(context.db, context.request.server.env, requireGraphqlActor(context), args.orgId),
      revokeLTICredentials: (_root: unknown, args: { orgId: string }, context: GraphqlContext) =>
        revokeCredentials(context.db, context.request.server.env, requireGraphqlActor(context), args.orgId),
    },
  },
};
