// The OpenAPI document as tests/api/openapi-walk.test.ts reads it: its operations with their
// parameters, body and answers (each answer's schema compiled by Ajv), valid requests drawn from
// the documented schemas (fast-check arbitraries: patterns, lengths, ranges, enums, required fields;
// the schemas' own examples where they give one) and invalid variants of them (a wrong type, a
// missing required field, a string over its maxLength, a value out of range or enum, broken JSON, an
// over-long Idempotency-Key, no token where one is required).
import Ajv, { type ValidateFunction } from 'ajv'; // fastify's own validator (a dependency of fastify)
import fc from 'fast-check';
import { API } from './accounts';

export type Schema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  nullable?: boolean;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  example?: unknown;
  default?: unknown;
  $ref?: string;
};
export interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
  schema: Schema;
}
export interface Doc {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Parameter[];
        requestBody?: { content: Record<string, { schema: Schema }> };
        security?: unknown[];
        responses: Record<string, { content?: Record<string, { schema: Schema }>; headers?: Record<string, unknown> }>;
      }
    >
  >;
  components: { schemas: Record<string, Schema> };
}
export interface Operation {
  method: string;
  path: string;
  params: Parameter[];
  query: Parameter[];
  headers: Parameter[];
  body: Schema | null;
  secured: boolean;
  statuses: Set<number>;
  /** Response validators by status. */
  validate: Map<number, ValidateFunction>;
  retryAfter: Set<number>;
}
export interface Request {
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** A value to send as JSON, or a raw string (`raw`) to send as it is. */
  body?: { value: unknown } | { raw: string };
}
export function operations(doc: Doc): Operation[] {
  const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: false });
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    if (!path.startsWith(`${API}/`)) continue;
    for (const [method, op] of Object.entries(methods)) {
      const parameters = op.parameters ?? [];
      const validate = new Map<number, ValidateFunction>();
      const retryAfter = new Set<number>();
      for (const [status, response] of Object.entries(op.responses)) {
        const schema = response.content?.['application/json']?.schema;
        if (schema) validate.set(Number(status), ajv.compile({ ...schema, components: doc.components }));
        if (response.headers?.['Retry-After']) retryAfter.add(Number(status));
      }
      ops.push({
        method: method.toUpperCase(),
        path,
        params: parameters.filter((p) => p.in === 'path'),
        query: parameters.filter((p) => p.in === 'query'),
        headers: parameters.filter((p) => p.in === 'header'),
        body: op.requestBody?.content['application/json']?.schema ?? null,
        // Every alternative needs the bearer token (`[{}, {bearer: []}]`: optional, as Google's sign-in-or-link).
        secured:
          (op.security ?? []).length > 0 &&
          (op.security ?? []).every((s) => Object.keys(s as object).includes('bearer')),
        statuses: new Set(Object.keys(op.responses).map(Number)),
        validate,
        retryAfter,
      });
    }
  }
  return ops;
}

// ---- valid values from a schema -----------------------------------------------------------------

const ALNUM = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_');

function patternArbitrary(pattern: string): fc.Arbitrary<string> {
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'u');
  } catch {
    re = new RegExp(pattern);
  }
  return fc.stringMatching(re);
}

/** Values the schema accepts (as far as JSON Schema can say; a refine() said in words may still refuse). */
export function valid(schema: Schema, real: Record<string, unknown> = {}, depth = 0): fc.Arbitrary<unknown> {
  if (schema.example !== undefined) return fc.constant(schema.example);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum.filter((v) => v !== null));
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches?.length) return fc.oneof(...branches.map((b) => valid(b, real, depth)));
  if (schema.allOf?.length) return valid(Object.assign({}, ...schema.allOf), real, depth);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string': {
      const min = schema.minLength ?? 0;
      const max = Math.min(schema.maxLength ?? min + 24, min + 24);
      if (schema.pattern)
        return patternArbitrary(schema.pattern).filter(
          (s) => s.length >= min && s.length <= (schema.maxLength ?? Infinity),
        );
      if (schema.format === 'email') return fc.emailAddress().filter((s) => s.length <= (schema.maxLength ?? 254));
      if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      return fc.string({ unit: ALNUM, minLength: Math.max(min, 1), maxLength: Math.max(max, Math.max(min, 1)) });
    }
    case 'integer':
    case 'number': {
      const min = Math.max(schema.minimum ?? 1, -1e9);
      const max = Math.min(schema.maximum ?? Math.max(min, 1000), min + 1e6);
      return type === 'integer'
        ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
        : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'array':
      if (depth > 4) return fc.constant([]);
      return fc.array(valid(schema.items ?? {}, real, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, (schema.minItems ?? 0) + 3),
      });
    case 'object': {
      const props = schema.properties ?? {};
      const required = schema.required ?? [];
      const record = Object.fromEntries(
        Object.entries(props).map(([name, s]) => [
          name,
          name in real ? fc.constant(real[name]) : valid(s, {}, depth + 1),
        ]),
      );
      return fc.record(record, { requiredKeys: required.filter((r) => r in props) });
    }
    default:
      return fc.constant('x');
  }
}

// ---- invalid requests ---------------------------------------------------------------------------

const typesOf = (s: Schema): Set<string> => {
  const set = new Set<string>();
  for (const b of s.anyOf ?? s.oneOf ?? []) for (const t of typesOf(b)) set.add(t);
  for (const t of Array.isArray(s.type) ? s.type : s.type ? [s.type] : []) set.add(t);
  if (s.nullable) set.add('null');
  if (s.enum?.length) set.add('enum');
  return set;
};

/** A JSON value of a type the schema never accepts, or undefined when it accepts anything. */
function wrongTypeValue(s: Schema): unknown {
  const types = typesOf(s);
  if (types.size === 0) return undefined;
  if (!types.has('boolean')) return true;
  if (!types.has('array')) return [1, 2];
  if (!types.has('object')) return { wrong: 1 };
  return undefined;
}

export interface Mutation {
  label: string;
  apply(r: Request): Request;
  /** The only status this invalid request may answer, when it is that clear. */
  expect?: number;
}

export function mutations(op: Operation): Mutation[] {
  const list: Mutation[] = [];
  const withBody = (r: Request, f: (b: Record<string, unknown>) => Record<string, unknown>): Request => {
    const value =
      r.body && 'value' in r.body && r.body.value !== null && typeof r.body.value === 'object'
        ? (r.body.value as Record<string, unknown>)
        : {};
    return { ...r, body: { value: f({ ...value }) } };
  };
  if (op.secured) {
    list.push({
      label: 'no token',
      expect: 401,
      apply: (r) => ({
        ...r,
        headers: Object.fromEntries(Object.entries(r.headers).filter(([k]) => k !== 'authorization')),
      }),
    });
  }
  const key = op.headers.find((h) => h.name === 'Idempotency-Key');
  if (key?.schema.maxLength !== undefined && op.secured && op.statuses.has(422)) {
    const max = key.schema.maxLength;
    list.push({
      label: 'Idempotency-Key too long',
      apply: (r) => ({ ...r, headers: { ...r.headers, 'idempotency-key': 'k'.repeat(max + 1) } }),
    });
  }
  for (const p of op.params) {
    const bad =
      typesOf(p.schema).has('integer') || typesOf(p.schema).has('number')
        ? 'abc'
        : p.schema.enum
          ? 'not-one-of-them'
          : p.schema.maxLength !== undefined
            ? 'p'.repeat(p.schema.maxLength + 1)
            : null;
    if (bad !== null)
      list.push({ label: `path ${p.name} invalid`, apply: (r) => ({ ...r, params: { ...r.params, [p.name]: bad } }) });
  }
  for (const q of op.query) {
    const s = q.schema;
    const bad = typesOf(s).has('integer')
      ? s.maximum !== undefined && s.maximum < 1e15
        ? String(s.maximum + 1)
        : 'abc'
      : s.enum
        ? 'not-one-of-them'
        : s.maxLength !== undefined
          ? 'q'.repeat(s.maxLength + 1)
          : null;
    if (bad !== null)
      list.push({ label: `query ${q.name} invalid`, apply: (r) => ({ ...r, query: { ...r.query, [q.name]: bad } }) });
  }
  if (op.body) {
    const body = op.body;
    const props = body.properties ?? {};
    list.push({ label: 'broken JSON', apply: (r) => ({ ...r, body: { raw: '{"a": ' } }) });
    if (!typesOf(body).has('array'))
      list.push({ label: 'body an array', apply: (r) => ({ ...r, body: { value: [1, 2] } }) });
    for (const name of body.required ?? [])
      list.push({ label: `missing ${name}`, apply: (r) => withBody(r, (b) => (delete b[name], b)) });
    for (const [name, s] of Object.entries(props)) {
      const wrong = wrongTypeValue(s);
      if (wrong !== undefined)
        list.push({ label: `${name} of a wrong type`, apply: (r) => withBody(r, (b) => ({ ...b, [name]: wrong })) });
      if (s.maxLength !== undefined && s.maxLength < 20_000)
        list.push({
          label: `${name} over ${s.maxLength} characters`,
          apply: (r) => withBody(r, (b) => ({ ...b, [name]: 'z'.repeat(s.maxLength! + 1) })),
        });
      if (typesOf(s).has('integer') && s.maximum !== undefined && s.maximum < 1e15)
        list.push({
          label: `${name} over ${s.maximum}`,
          apply: (r) => withBody(r, (b) => ({ ...b, [name]: s.maximum! + 1 })),
        });
    }
  }
  return list;
}
