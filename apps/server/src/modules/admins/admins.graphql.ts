import type { GraphqlContext, GraphqlModule } from '../graphql/graphql.context.js';
import { requireGraphqlActor } from '../graphql/graphql.context.js';
import { deleteAdmins, importAdmins, listAdmins } from './admins.service.js';
import { withIdempotency } from '../access/idempotency.js';

interface AdminsArgs {
  orgId: string;
  emails: string[];
}

interface GetAdminsArgs {
  orgId: string;
  search?: string | null;
  sort?: string | null;
  dir?: string | null;
  page?: number | null;
  pageSize?: number | null;
}

/** The Admin page of the organisation service (docs/libraries-api.md, "Admins"). */
export const adminsGraphql: GraphqlModule = {
  name: 'admins',
  typeDefs: /* GraphQL */ `
    "One admin of an organisation."
    type AdminEntry {
      email: String!
      organisationId: ID!
      "The table's Organization column."
      organisationName: String!
      "Listed at an organisation above this one (a district admin): an admin here through it, removed only there."
      inherited: Boolean!
      "Identity user, once they signed in."
      userId: ID
      "When the admin is also a member (teacher) of the organisation."
      memberId: ID
      "The member's name, else the user's name; null: show the e-mail."
      displayName: String
      "The signed-in user."
      isYou: Boolean!
      "2-step verification of the admin's account: passkey (at least one), on (an authenticator app only) or off (also for an admin who never signed in)."
      twoStep: String!
    }
    type AdminPage {
      admins: [AdminEntry!]!
      total: Int!
      page: Int!
      pageSize: Int!
    }
    type AdminsImported {
      added: [String!]!
      "Already admins: left unchanged."
      existing: [String!]!
    }
    type AdminsRemoved {
      removed: [String!]!
    }
    extend type Query {
      "search: e-mail or name substring; sort: email (default) or name; dir: asc (default) or desc; pageSize 10, 20, 50, 100."
      getAdmins(orgId: ID!, search: String, sort: String, dir: String, page: Int, pageSize: Int): AdminPage!
    }
    extend type Mutation {
      importAdmins(orgId: ID!, emails: [String!]!): AdminsImported!
      "The last of an organisation's own admins (provider staff do not count) cannot be removed (409 last_admin)."
      deleteAdmins(orgId: ID!, emails: [String!]!): AdminsRemoved!
    }
  `,
  resolvers: {
    Query: {
      getAdmins: (_root: unknown, args: GetAdminsArgs, ctx: GraphqlContext) =>
        listAdmins(ctx.db, requireGraphqlActor(ctx), { organisationId: args.orgId, ...args }),
    },
    Mutation: {
      importAdmins: (_root: unknown, args: AdminsArgs, ctx: GraphqlContext) => {
        const actor = requireGraphqlActor(ctx);
        return withIdempotency(ctx.db, ctx.request, actor, () =>
          importAdmins(ctx.db, actor, {
            organisationId: args.orgId, emails: args.emails, providerEmailDomain: ctx.app.env.PROVIDER_EMAIL_DOMAIN, productName: ctx.app.env.PRODUCT_NAME,
            districtSsoDomains: ctx.app.env.DISTRICT_SSO_DOMAINS.split(','),
          }),
        );
      },
      deleteAdmins: (_root: unknown, args: AdminsArgs, ctx: GraphqlContext) => {
        const actor = requireGraphqlActor(ctx);
        return withIdempotency(ctx.db, ctx.request, actor, () =>
          deleteAdmins(ctx.db, actor, { organisationId: args.orgId, emails: args.emails, providerEmailDomain: ctx.app.env.PROVIDER_EMAIL_DOMAIN }),
        );
      },
    },
  },
};
