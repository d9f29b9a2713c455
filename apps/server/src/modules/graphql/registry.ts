import type { IResolvers } from 'mercurius';
import { GraphQLScalarType } from 'graphql';
import type { GraphqlContext, GraphqlModule } from './graphql.context.js';
import { applyFieldAccess } from './field-access.js';
import { JsonObjectScalar, LibraryQuotaScalar, scalarTypeDefs } from './scalars.js';

/** The shared base: root types (a placeholder field each, as SDL needs one) and the scalars. */
const baseModule: GraphqlModule = {
  name: 'base',
  typeDefs: /* GraphQL */ `
    type Query {
      "Always null; feature modules extend Query."
      _empty: Boolean
    }
    type Mutation {
      "Always null; feature modules extend Mutation."
      _empty: Boolean
    }
    ${scalarTypeDefs}
  `,
  resolvers: { LibraryQuota: LibraryQuotaScalar, JSONObject: JsonObjectScalar },
};

/**
 * One schema and one resolver map from the feature modules' shares (each module's `<module>.plugin.ts` names
 * its share; app.ts passes them all); two modules defining the same field stop the start.
 */
export function mergeGraphqlModules(modules: readonly GraphqlModule[]): {
  schema: string;
  resolvers: IResolvers<never, GraphqlContext>;
} {
  const all = [baseModule, ...modules];
  const resolvers: IResolvers<never, GraphqlContext> = {};
  for (const module of all) {
    for (const [typeName, value] of Object.entries(module.resolvers)) {
      const existing = resolvers[typeName];
      if (value instanceof GraphQLScalarType || typeof value !== 'object' || value === null) {
        if (existing) throw new Error(`GraphQL: ${typeName} is defined twice (module ${module.name})`);
        resolvers[typeName] = value;
        continue;
      }
      const target = (existing ?? {}) as Record<string, unknown>;
      for (const [field, resolver] of Object.entries(value)) {
        if (field in target) throw new Error(`GraphQL: ${typeName}.${field} is defined twice (module ${module.name})`);
        target[field] = resolver;
      }
      resolvers[typeName] = target as IResolvers<never, GraphqlContext>[string];
    }
  }
  const schema = all.map((m) => m.typeDefs).join('\n');
  if (/\btype Organisation\b/.test(schema)) applyFieldAccess(resolvers);
  return { schema, resolvers };
}
