// Answers are written by fast-json-stringify, compiled once per route from the JSON Schema of the
// route's zod response schema (shared/api: still the one source of truth for the shapes). The
// zod serialiser of fastify-type-provider-zod parsed every answer before JSON.stringify; on the hot
// reads that was most of the serialising time (`npm run bench`).
// Only properties the schema names are written, at every depth, so a database row with extra
// columns leaks nothing, as zod's stripping did. Schemas the compiled writer would treat
// differently from zod (unions, references, anything without a JSON Schema) keep zod's serialiser.
import fastJson, { type Schema } from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { $ZodType } from 'zod/v4/core';

type JsonSchema = Record<string, unknown>;
const SCALARS = new Set(['string', 'number', 'integer', 'boolean']);
/** Keywords whose meaning fast-json-stringify does not share with zod's output (it would pick a branch by validating, or coerce). */
const UNSUPPORTED = new Set([
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  'if',
  '$ref',
  '$defs',
  'definitions',
  'patternProperties',
]);

/**
 * The schema as fast-json-stringify should write it, or null when it keeps zod's serialiser.
 * `integer` is written as `number`: fast-json-stringify would truncate a fraction where zod refused it.
 */
function writable(schema: JsonSchema): JsonSchema | null {
  const out: JsonSchema = {};
  let s = schema;
  const any = s.anyOf as JsonSchema[] | undefined;
  // zod's `.nullable()` of a scalar: anyOf [T, null] is type [T, null].
  if (
    any?.length === 2 &&
    any[1].type === 'null' &&
    typeof any[0].type === 'string' &&
    SCALARS.has(any[0].type) &&
    Object.keys(s).length === 1
  ) {
    s = { ...any[0], type: [any[0].type, 'null'] };
  }
  for (const [key, value] of Object.entries(s)) {
    if (UNSUPPORTED.has(key)) return null;
    if (key === '$schema' || key === 'description' || key === 'minimum' || key === 'maximum') continue;
    if (key === 'type') {
      out.type = Array.isArray(value)
        ? value.map((t) => (t === 'integer' ? 'number' : t))
        : value === 'integer'
          ? 'number'
          : value;
    } else if (key === 'properties') {
      const props: JsonSchema = {};
      for (const [name, prop] of Object.entries(value as JsonSchema)) {
        const w = writable(prop as JsonSchema);
        if (!w) return null;
        props[name] = w;
      }
      out.properties = props;
    } else if ((key === 'items' || key === 'additionalProperties') && typeof value === 'object' && value !== null) {
      if (Array.isArray(value)) return null;
      const w = writable(value as JsonSchema);
      if (!w) return null;
      out[key] = w;
    } else out[key] = value;
  }
  // A schema that says nothing (z.unknown()) is JSON.stringify'd as it is; an object lists its keys.
  if (out.type === 'object' && out.properties === undefined && out.additionalProperties === undefined) return null;
  return out;
}

/** The JSON Schema fast-json-stringify compiles for this zod schema, or null (see `writable`). */
export function compiledResponseSchema(zodSchema: $ZodType): JsonSchema | null {
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(zodSchema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' }) as JsonSchema;
  } catch {
    return null;
  }
  return writable(json);
}

/** The app's serializerCompiler: fast-json-stringify where the schema allows, else zod's. */
export const responseSerializerCompiler: typeof zodSerializerCompiler = (route) => {
  const given = route.schema as unknown;
  const properties = (given as { properties?: unknown } | null)?.properties;
  const zodSchema = given instanceof $ZodType ? given : properties instanceof $ZodType ? properties : null;
  const json = zodSchema ? compiledResponseSchema(zodSchema) : null;
  return json ? fastJson(json as unknown as Schema) : zodSerializerCompiler(route);
};
