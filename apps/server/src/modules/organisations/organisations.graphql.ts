import type { GraphqlContext, GraphqlModule } from '../graphql/graphql.context.js';
import { requireGraphqlActor } from '../graphql/graphql.context.js';
import {
  getOrganisationAdmins,
  getOrganisationById,
  getOrganisations,
} from './organisations.service.js';
import { moveOrganisation } from './move-organisation.service.js';
import { renameOrganisation } from './rename-organisation.service.js';

/** The organisation entity of spec §3, as the organisation service serves it. */
const organisationsTypeDefs = /* GraphQL */ `
  "An organisation the actor may open (picker entry)."
  type OrganisationSummary {
    id: ID!
    name: String!
    "The organisation above this one (a district over its schools), or null: the picker shows the tree."
    parentId: ID
  }

  type OrganisationFeatures {
    orgLibraries: Boolean!
    studentPortfolios: Boolean!
    visitLibraries: Boolean!
  }

  type OrganisationAdmin {
    email: String!
  }

  "LTI credentials; both null when not generated."
  type LtiCredentials {
    consumerKey: String
    consumerSecret: String
  }

  type OrganisationSettings {
    "App id to permission: 1 teachers only, -1 disabled for everyone; unset apps are absent."
    apps: JSONObject!
    "'pixabay', or null (Google image search allowed)."
    imageSearch: String
  }

  type Organisation {
    id: ID!
    name: String!
    isDomain: Boolean!
    features: OrganisationFeatures!
    licenses: [License!]!
    admins: [OrganisationAdmin!]!
    lti: LtiCredentials!
    settings: OrganisationSettings!
    "What the signed-in user may do here: 'admin' or 'library-manager' (the same rule as the ID token's bc_orgs)."
    access: String!
  }

  type RenamedOrganisation {
    id: ID!
    name: String!
  }
  extend type Query {
    "Organisations where the signed-in user is an admin or a library manager, by name ascending."
    getOrganisations: [OrganisationSummary!]!
    getOrganisationById(id: ID!): Organisation!
  }
  extend type Mutation {
    "The licence dashboard's editable name: trimmed, 1 to 128 characters."
    renameOrganisation(orgId: ID!, name: String!): RenamedOrganisation!
    "Provider staff only: places the organisation under parentId (a school into a district), or at the top with null. Recorded."
    moveOrganisation(orgId: ID!, parentId: ID): OrganisationSummary!
  }
`;

interface OrganisationParent {
  id: string;
}

export const organisationsGraphql: GraphqlModule = {
  name: 'organisations',
  typeDefs: organisationsTypeDefs,
  resolvers: {
    Query: {
      getOrganisations: (_root: unknown, _args: unknown, context: GraphqlContext) =>
        getOrganisations(context.db, requireGraphqlActor(context)),
      getOrganisationById: (_root: unknown, args: { id: string }, context: GraphqlContext) =>
        getOrganisationById(context.db, requireGraphqlActor(context), args.id),
    },
    Mutation: {
      renameOrganisation: (_root: unknown, args: { orgId: string; name: string }, context: GraphqlContext) =>
        renameOrganisation(context.db, requireGraphqlActor(context), { organisationId: args.orgId, name: args.name }),
      moveOrganisation: (_root: unknown, args: { orgId: string; parentId?: string | null }, context: GraphqlContext) =>
        moveOrganisation(context.db, context.request.server.env, requireGraphqlActor(context), { organisationId: args.orgId, parentId: args.parentId ?? null }),
    },
    // Loaded only when asked for; access was checked by getOrganisationById. `lti` is the lti module's (admins only),
    // `licenses` the licenses module's.
    Organisation: {
      admins: (parent: OrganisationParent, _args: unknown, context: GraphqlContext) => getOrganisationAdmins(context.db, parent.id),
    },
  },
};
