import { settingsUpdateSchema } from '@quire/core';
import { appError } from '../../errors.js';
import type { GraphqlContext, GraphqlModule } from '../graphql/graphql.context.js';
import { requireGraphqlActor } from '../graphql/graphql.context.js';
import { updateSettings } from './settings.service.js';

/** updateSettings(orgId, settings) of the organisation service (spec §7); same rules as PATCH …/settings. */
export const settingsGraphql: GraphqlModule = {
  name: 'settings',
  typeDefs: /* GraphQL */ `
    extend type Mutation {
      "Merges a partial settings object ({ apps: { giphy: -1 } }, { imageSearch: \\"pixabay\\" } or null); admins only. Answers the settings after the change."
      updateSettings(orgId: ID!, settings: JSONObject!): OrganisationSettings!
    }
  `,
  resolvers: {
    Mutation: {
      updateSettings: async (_root: unknown, args: { orgId: string; settings: Record<string, unknown> }, context: GraphqlContext) => {
        const actor = requireGraphqlActor(context);
        const parsed = settingsUpdateSchema.safeParse(args.settings);
        if (!parsed.success) {
          throw appError('invalid_settings', { message: parsed.error.issues.map((i) => `${i.path.join('.') || 'settings'}: ${i.message}`).join('; ') });
        }
        return updateSettings(context.db, actor, args.orgId, parsed.data);
      },
    },
  },
};
