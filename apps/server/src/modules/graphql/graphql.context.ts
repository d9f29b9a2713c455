import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { IResolvers, MercuriusContext } from 'mercurius';
import type { DB } from '../../db/types.js';
import { requireActor, type Actor } from '../access/actor.js';

/** What every resolver receives as its context. */
export interface GraphqlContext extends MercuriusContext {
  /** The signed-in user, or null (resolvers call requireGraphqlActor). */
  actor: Actor | null;
  db: Kysely<DB>;
  request: FastifyRequest;
}

/** A feature module's share of the schema: SDL using `extend type Query` / `extend type Mutation`, and its resolvers. */
export interface GraphqlModule {
  name: string;
  typeDefs: string;
  /** Source typed `never` so each resolver may name its own parent type. */
  resolvers: IResolvers<never, GraphqlContext>;
}

/** The actor, or the `unauthorised` error (same code as REST). */
export function requireGraphqlActor(context: GraphqlContext): Actor {
  return requireActor(context.request);
}
