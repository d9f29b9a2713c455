import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { UNLIMITED } from '@quire/core';

/** libraryQuota: an Int, or the string "UNLIMITED" (spec §3). */
export const LibraryQuotaScalar = new GraphQLScalarType({
  name: 'LibraryQuota',
  description: 'A library quota: an Int, or the string "UNLIMITED".',
  serialize: (value) => {
    if (value === null || value === UNLIMITED) return UNLIMITED;
    if (typeof value === 'number' && Number.isInteger(value)) return value;
    throw new GraphQLError('LibraryQuota must be an integer or "UNLIMITED"');
  },
  parseValue: (value) => {
    if (value === UNLIMITED || (typeof value === 'number' && Number.isInteger(value) && value >= 0)) return value;
    throw new GraphQLError('LibraryQuota must be a non-negative integer or "UNLIMITED"');
  },
  parseLiteral: (ast) => {
    if (ast.kind === Kind.INT) return Number(ast.value);
    if (ast.kind === Kind.STRING && ast.value === UNLIMITED) return UNLIMITED;
    throw new GraphQLError('LibraryQuota must be an integer or "UNLIMITED"');
  },
});

function literalToJson(ast: ValueNode): unknown {
  switch (ast.kind) {
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, literalToJson(f.value)]));
    case Kind.LIST:
      return ast.values.map(literalToJson);
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.STRING:
    case Kind.ENUM:
      return ast.value;
    case Kind.BOOLEAN:
      return ast.value;
    default:
      return null;
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON object (e.g. settings.apps: app id → 1 or -1). */
export const JsonObjectScalar = new GraphQLScalarType({
  name: 'JSONObject',
  description: 'A JSON object.',
  serialize: (value) => {
    if (isPlainObject(value)) return value;
    throw new GraphQLError('JSONObject must be an object');
  },
  parseValue: (value) => {
    if (isPlainObject(value)) return value;
    throw new GraphQLError('JSONObject must be an object');
  },
  parseLiteral: (ast) => {
    const value = literalToJson(ast);
    if (isPlainObject(value)) return value;
    throw new GraphQLError('JSONObject must be an object');
  },
});

export const scalarTypeDefs = /* GraphQL */ `
  scalar LibraryQuota
  scalar JSONObject
`;
