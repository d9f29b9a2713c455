import { safeParse, type $ZodType as ZodType } from 'zod/v4/core';

/** The parts of a zod 4 schema's definition the check walks; anything else is checked with safeParse. */
interface Def {
  type: string;
  shape?: Record<string, ZodType>;
  catchall?: ZodType;
  element?: ZodType;
  innerType?: ZodType;
  options?: ZodType[];
  in?: ZodType;
  valueType?: ZodType;
}

const defOf = (schema: ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * How a value departs from its contract, one line per problem (empty when it conforms). Stricter than
 * parsing: a field the contract does not have is a problem too (a parse would drop it silently). With
 * `selection`, fields the contract has may be missing (a GraphQL answer carries only what was asked).
 * The console's test fake and the end-to-end helpers check the answers they give or get with it.
 * @internal
 */
export function contractProblems(schema: ZodType, value: unknown, options: { selection?: boolean } = {}, path = '$'): string[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
      return value === undefined ? [] : contractProblems(def.innerType!, value, options, path);
    case 'nullable':
      return value === null ? [] : contractProblems(def.innerType!, value, options, path);
    case 'default':
    case 'prefault':
      return value === undefined ? [] : contractProblems(def.innerType!, value, options, path);
    case 'pipe':
      return contractProblems(def.in!, value, options, path);
    case 'array':
      if (!Array.isArray(value)) return [`${path}: expected an array`];
      return value.flatMap((item, i) => contractProblems(def.element!, item, options, `${path}[${i}]`));
    case 'union': {
      const tries = (def.options ?? []).map((option) => contractProblems(option, value, options, path));
      return tries.some((t) => t.length === 0) ? [] : [`${path}: matches none of the allowed shapes (${tries.map((t) => t[0]).join('; ')})`];
    }
    case 'record':
      if (!isRecord(value)) return [`${path}: expected an object`];
      return [...schemaProblems(schema, value, path), ...Object.entries(value).flatMap(([k, v]) => contractProblems(def.valueType!, v, options, `${path}.${k}`))];
    case 'object': {
      if (!isRecord(value)) return [`${path}: expected an object`];
      const shape = def.shape ?? {};
      const problems: string[] = [];
      const open = def.catchall !== undefined && defOf(def.catchall).type !== 'never';
      if (!open) for (const key of Object.keys(value)) if (!(key in shape)) problems.push(`${path}.${key}: not in the contract`);
      for (const [key, field] of Object.entries(shape)) {
        if (!(key in value)) {
          if (!options.selection) problems.push(...contractProblems(field, undefined, options, `${path}.${key}`).map((p) => p.replace(/: .*/, ': missing')));
          continue;
        }
        problems.push(...contractProblems(field, value[key], options, `${path}.${key}`));
      }
      return problems;
    }
    default:
      return schemaProblems(schema, value, path);
  }
}

function schemaProblems(schema: ZodType, value: unknown, path: string): string[] {
  const parsed = safeParse(schema, value);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${[path, ...issue.path].join('.')}: ${issue.message}`);
}
