import type { GraphqlContext, GraphqlModule } from '../graphql/graphql.context.js';
import { withIdempotency } from '../access/idempotency.js';
import { requireGraphqlActor } from '../graphql/graphql.context.js';
import { deleteMemberships, grantMembership, revokeMembership, updateMembershipRole } from './members.service.js';

interface MembersArgs {
  orgId: string;
  memberIds: string[];
}

/** Membership mutations of the organisation service (docs/teachers-api.md). */
export const membersGraphql: GraphqlModule = {
  name: 'members',
  typeDefs: /* GraphQL */ `
    "The members a membership change actually changed."
    type MembersChanged {
      memberIds: [ID!]!
    }
    type MembershipRole {
      memberId: ID!
      role: Int!
    }
    extend type Mutation {
      "Remove teacher: the members move to Inactive and give back their licence."
      revokeMembership(orgId: ID!, memberIds: [ID!]!): MembersChanged!
      "Mark as Active."
      grantMembership(orgId: ID!, memberIds: [ID!]!): MembersChanged!
      deleteMemberships(orgId: ID!, memberIds: [ID!]!): MembersChanged!
      "Library manager (400) or teacher (600); userId is the member id or the identity user id."
      updateMembershipRole(orgId: ID!, userId: ID!, role: Int!): MembershipRole!
    }
  `,
  resolvers: {
    Mutation: {
      revokeMembership: (_root: unknown, args: MembersArgs, ctx: GraphqlContext) => {
        const actor = requireGraphqlActor(ctx);
        return withIdempotency(ctx.db, ctx.request, actor, () =>
          revokeMembership(ctx.db, actor, { organisationId: args.orgId, memberIds: args.memberIds, providerEmailDomain: ctx.app.env.PROVIDER_EMAIL_DOMAIN }),
        );
      },
      grantMembership: (_root: unknown, args: MembersArgs, ctx: GraphqlContext) => {
        const actor = requireGraphqlActor(ctx);
        return withIdempotency(ctx.db, ctx.request, actor, () => grantMembership(ctx.db, actor, { organisationId: args.orgId, memberIds: args.memberIds }));
      },
      deleteMemberships: (_root: unknown, args: MembersArgs, ctx: GraphqlContext) =>
        deleteMemberships(ctx.db, requireGraphqlActor(ctx), {
          organisationId: args.orgId, memberIds: args.memberIds, providerEmailDomain: ctx.app.env.PROVIDER_EMAIL_DOMAIN,
        }),
      updateMembershipRole: (_root: unknown, args: { orgId: string; userId: string; role: number }, ctx: GraphqlContext) =>
        updateMembershipRole(ctx.db, requireGraphqlActor(ctx), { organisationId: args.orgId, userId: args.userId, role: args.role }),
    },
  },
};
