import { settingPoliciesUpdateSchema, settingsUpdateSchema } from '@quire/core';
import type { z } from 'zod';
import { appError } from '../../errors.js';
import type { GraphqlContext, GraphqlModule } from '../graphql/graphql.context.js';
import { requireGraphqlActor } from '../graphql/graphql.context.js';
import { readEffectiveSettings, readSettingsUnchecked, updateSettings } from './settings.service.js';
import { updateSettingPolicies } from './setting-policies.service.js';

/** A JSONObject argument checked with its schema of @quire/core: 400 invalid_settings naming each problem. */
function parsed<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw appError('invalid_settings', { message: result.error.issues.map((i) => `${i.path.join('.') || 'settings'}: ${i.message}`).join('; ') });
  }
  return result.data;
}

/**
 * updateSettings(orgId, settings) of the organisation service (spec §7); same rules as PATCH …/settings. Districts
 * (docs/settings.md): updateSettingPolicies as PATCH …/setting-policies, Organisation.effectiveSettings as GET
 * …/settings?include=sources, and Organisation.settings answers the values in force.
 */
export const settingsGraphql: GraphqlModule = {
  name: 'settings',
  typeDefs: /* GraphQL */ `
    "The settings in force and where each comes from (GET …/settings?include=sources)."
    type EffectiveSettings {
      organisationId: ID!
      "App id to permission in force: 1 teachers only, -1 disabled for everyone; teachers and students are absent."
      apps: JSONObject!
      "'pixabay', or null (Google image search allowed)."
      imageSearch: String
      "Per setting ({ apps: { <appId>: … }, imageSearch: … }): value, from ('own', 'locked', 'default', 'built-in'), setBy, own, inheritedDefault."
      sources: JSONObject!
      "This organisation's policies for the organisations below it: { apps: { <appId>: { mode, value } }, imageSearch }."
      policies: JSONObject!
      hasOrganisationsBelow: Boolean!
    }

    extend type Organisation {
      "The settings in force with their sources, and this organisation's policies for those below it."
      effectiveSettings: EffectiveSettings!
    }

    extend type Mutation {
      "Merges a partial settings object ({ apps: { giphy: -1 } }, { imageSearch: \\"pixabay\\" } or null); admins only. Answers the settings after the change."
      updateSettings(orgId: ID!, settings: JSONObject!): OrganisationSettings!
      "Merges a partial change of policies for the organisations below ({ apps: { giphy: { mode: \\"locked\\", value: -1 } } }, null: let schools decide); the organisation's admins only."
      updateSettingPolicies(orgId: ID!, policies: JSONObject!): EffectiveSettings!
    }
  `,
  resolvers: {
    // Access was checked by getOrganisationById; the values are those in force, a district's lock or default included.
    Organisation: {
      settings: (parent: { id: string }, _args: unknown, context: GraphqlContext) => readSettingsUnchecked(context.db, parent.id),
      effectiveSettings: (parent: { id: string }, _args: unknown, context: GraphqlContext) =>
        readEffectiveSettings(context.db, requireGraphqlActor(context), parent.id),
    },
    Mutation: {
      updateSettings: async (_root: unknown, args: { orgId: string; settings: Record<string, unknown> }, context: GraphqlContext) => {
        const actor = requireGraphqlActor(context);
        return updateSettings(context.db, actor, args.orgId, parsed(settingsUpdateSchema, args.settings));
      },
      updateSettingPolicies: async (_root: unknown, args: { orgId: string; policies: Record<string, unknown> }, context: GraphqlContext) => {
        const actor = requireGraphqlActor(context);
        return updateSettingPolicies(context.db, actor, args.orgId, parsed(settingPoliciesUpdateSchema, args.policies));
      },
    },
  },
};
