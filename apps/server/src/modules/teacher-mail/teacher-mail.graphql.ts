import { publicUrl } from '../../env.js';
import { withIdempotency } from '../access/idempotency.js';
import type { GraphqlContext, GraphqlModule } from '../graphql/graphql.context.js';
import { requireGraphqlActor } from '../graphql/graphql.context.js';
import { previewTeacherEmail, sendTeacherEmail, type TeacherMailSettings } from './teacher-mail.service.js';
import type { TeacherEmailKind } from './teacher-mail.templates.js';

type KindArg = 'WELCOME' | 'CERTIFICATION';

interface SendEmailArgs {
  orgId: string;
  email: { kind: KindArg; subject: string; body: { plain: string }; members: string[]; date?: string | null };
}

const kindOf = (kind: KindArg): TeacherEmailKind => (kind === 'WELCOME' ? 'welcome' : 'certification');

function settingsOf(ctx: GraphqlContext): TeacherMailSettings {
  const env = ctx.app.env;
  return { productName: env.PRODUCT_NAME, publicUrl: publicUrl(env), providerEmailDomain: env.PROVIDER_EMAIL_DOMAIN };
}

const sendEmail = (_root: unknown, args: SendEmailArgs, ctx: GraphqlContext) => {
  const actor = requireGraphqlActor(ctx);
  return withIdempotency(ctx.db, ctx.request, actor, () =>
    sendTeacherEmail(ctx.db, actor, ctx.app.mail, settingsOf(ctx), {
      organisationId: args.orgId,
      kind: kindOf(args.email.kind),
      subject: args.email.subject,
      message: args.email.body.plain,
      memberIds: args.email.members,
      date: args.email.date ?? undefined,
    }),
  );
};

/** The welcome e-mail and the certification request (docs/teachers-api.md). */
export const teacherMailGraphql: GraphqlModule = {
  name: 'teacher-mail',
  typeDefs: /* GraphQL */ `
    enum TeacherEmailKind {
      WELCOME
      CERTIFICATION
    }
    input TeacherEmailBody {
      "The admin's message."
      plain: String!
    }
    input TeacherEmailInput {
      kind: TeacherEmailKind!
      subject: String!
      body: TeacherEmailBody!
      "Member ids."
      members: [ID!]!
      "WELCOME only: sign up by this date (YYYY-MM-DD); default 14 days from now."
      date: String
    }
    type SendEmailResult {
      "Members e-mailed."
      sentTo: [ID!]!
      "Banner texts, e.g. students who were skipped; empty when all went well."
      errors: [String!]!
    }
    type TeacherEmailPreview {
      subject: String!
      defaultMessage: String!
      "The body the first recipient would receive."
      plain: String!
      recipients: Int!
      errors: [String!]!
    }
    extend type Query {
      teacherEmailPreview(orgId: ID!, kind: TeacherEmailKind!, members: [ID!]!, message: String, date: String): TeacherEmailPreview!
    }
    extend type Mutation {
      "The spec lists sendEmail among the queries; it sends mail, so it is a mutation only (GET runs no mutation)."
      sendEmail(orgId: ID!, email: TeacherEmailInput!): SendEmailResult!
    }
  `,
  resolvers: {
    Query: {
      teacherEmailPreview: (
        _root: unknown,
        args: { orgId: string; kind: KindArg; members: string[]; message?: string | null; date?: string | null },
        ctx: GraphqlContext,
      ) =>
        previewTeacherEmail(ctx.db, requireGraphqlActor(ctx), settingsOf(ctx), {
          organisationId: args.orgId,
          kind: kindOf(args.kind),
          memberIds: args.members,
          message: args.message ?? undefined,
          date: args.date ?? undefined,
        }),
    },
    Mutation: { sendEmail },
  },
};
