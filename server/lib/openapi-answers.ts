// What the OpenAPI document says about each operation beyond its 2xx answer (decisions §15), derived
// from the route's own options, so a route added later is described without touching this file:
//  - request rules from the route's zod schemas (min/max/regex/enum as JSON Schema; a refine()'s
//    message, which no JSON Schema keyword can say, in the field's `description`);
//  - `security: [{bearer: []}]` and 401 when the route's onRequest holds `app.requireUser` (401 alone
//    with `app.refuseBadToken`);
//  - the optional `Idempotency-Key` header (with its rule) on every state-changing call, and the
//    idempotency answers (400 invalid_idempotency_key, 409 idempotency_in_progress, 422
//    idempotency_key_reused) where a key can keep an answer (plugins/idempotency.ts);
//  - 400 everywhere (a NUL in the path or query), for validation and invalid JSON when the call
//    takes input; 404 for ids in the path; 403 reauth_required when the body takes proof (a
//    `reauth` field); 413/415 for bodies; 429 with Retry-After everywhere (request-rate limits;
//    attempt limits on sign-in calls); 503 with Retry-After everywhere (restarting; `busy` where a
//    password is hashed);
//  - the optional `X-Device` header where the call signs in (its answer has `device`) or checks the
//    account's password;
//  - whatever else a route declares in `config.answers` (status → its codes).
// Every error answer has the shape of shared/api/errors.ts. The document is built on the first
// request for it and cached; nothing here runs per request.
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { $ZodType, toJSONSchema } from 'zod/v4/core';
import { DEVICE_HEADER_MAX } from '@shared/auth-headers';
import { apiErrorSchema, IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX } from '@shared/api/errors';
import { routeMayKeep } from '../plugins/idempotency';
import { listOf } from './one-or-many';

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 502 | 503;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Error answers the OpenAPI document cannot derive from the route's options (lib/openapi-answers.ts):
     * status → the codes the route answers with (`{403: ['ico_not_enabled']}`). Derived ones need no entry.
     */
    answers?: Partial<Record<ErrorStatus, readonly string[]>>;
  }
}

type JsonSchema = Record<string, unknown>;
type TransformInput = Parameters<typeof jsonSchemaTransform>[0];
type RouteSchema = Record<string, unknown> & {
  body?: unknown;
  querystring?: unknown;
  params?: unknown;
  headers?: unknown;
  response?: Record<string, unknown>;
  security?: unknown;
  hide?: boolean;
};

export const API_ERROR_SCHEMA_NAME = 'ApiError';
export const API_ERROR_REF = `#/components/schemas/${API_ERROR_SCHEMA_NAME}`;

/** The error shape as a component of the document. */
export const apiErrorJsonSchema = (): JsonSchema =>
  strip(toJSONSchema(apiErrorSchema, { target: 'openapi-3.0', io: 'output', unrepresentable: 'any' }) as JsonSchema);

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const DEVICE_HEADER_SCHEMA = {
  type: 'string',
  description: `Optional: the known-device strings this browser keeps (the \`device\` of earlier sign-in answers), comma-separated, at most ${DEVICE_HEADER_MAX}. Attempts from a known device of the account have their own attempt limit and share of the password-hash queue (decisions §13).`,
};
const retryAfter = (when: string) => ({
  'Retry-After': { type: 'integer', minimum: 1, description: `Seconds to wait before trying again (${when})` },
});

const STATUS_TEXT: Record<ErrorStatus, string> = {
  400: 'Bad request',
  401: 'Not signed in',
  403: 'Refused for this player',
  404: 'Not found',
  409: 'Conflict',
  413: 'Body too large',
  415: 'Unsupported content type',
  422: 'Unprocessable',
  429: 'Too many requests',
  502: 'Upstream provider failed',
  503: 'Unavailable for now',
};

/** Drops what OpenAPI 3.0 schemas may not hold (zod adds `$schema`). */
function strip(schema: JsonSchema): JsonSchema {
  delete schema.$schema;
  return schema;
}

/** The message of a refine()/superRefine() check, when it has a fixed one. */
function refinementText(check: unknown): string | null {
  const def = (
    check as { _zod?: { def?: { check?: string; error?: (issue: unknown) => unknown; path?: PropertyKey[] } } }
  )._zod?.def;
  if (def?.check !== 'custom') return null;
  let message: unknown;
  try {
    message = def.error?.({ code: 'custom', input: undefined });
  } catch {
    message = undefined;
  }
  const text =
    typeof message === 'string'
      ? message
      : typeof (message as { message?: unknown })?.message === 'string'
        ? (message as { message: string }).message
        : null;
  const said =
    text === null ? 'refused when a further check fails' : `refused with “${text}” when a further check fails`;
  return def.path?.length ? `\`${def.path.join('.')}\` ${said}` : said;
}

/** A zod request schema as JSON Schema, every refinement said in words where it applies. */
function requestJsonSchema(zodSchema: $ZodType): JsonSchema {
  return strip(
    toJSONSchema(zodSchema, {
      target: 'openapi-3.0',
      io: 'input',
      unrepresentable: 'any',
      cycles: 'ref',
      reused: 'inline',
      override(ctx) {
        const def = ctx.zodSchema._zod.def as { type: string; checks?: unknown[] };
        // As fastify-type-provider-zod does: a union's empty branches say nothing.
        if (def.type === 'union' && Array.isArray(ctx.jsonSchema.anyOf))
          ctx.jsonSchema.anyOf = ctx.jsonSchema.anyOf.filter((s) => Object.keys(s).length > 0);
        const rules = (def.checks ?? []).map(refinementText).filter((t): t is string => t !== null);
        if (rules.length === 0) return;
        const said = typeof ctx.jsonSchema.description === 'string' ? `${ctx.jsonSchema.description} ` : '';
        const text = rules.join('; ');
        ctx.jsonSchema.description = `${said}${text[0].toUpperCase()}${text.slice(1)}.`;
      },
    }) as JsonSchema,
  );
}

/** Property names of a JSON Schema object, through anyOf/oneOf branches. */
function propertyNames(schema: JsonSchema | undefined): Set<string> {
  const names = new Set<string>();
  if (!schema) return names;
  for (const name of Object.keys((schema.properties as JsonSchema | undefined) ?? {})) names.add(name);
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    for (const branch of (schema[key] as JsonSchema[] | undefined) ?? [])
      for (const n of propertyNames(branch)) names.add(n);
  }
  return names;
}

const codeList = (codes: Iterable<string>) => [...new Set(codes)].map((c) => `\`${c}\``).join(', ');

/** What one route can answer besides its 2xx, and what it asks for, from its options. */
export function describeRoute(app: FastifyInstance, route: RouteOptions, body: JsonSchema | undefined) {
  const methods = listOf(route.method).map((m) => m.toUpperCase());
  const config = route.config as
    | { signIn?: boolean; stateChanging?: boolean; answers?: Partial<Record<ErrorStatus, readonly string[]>> }
    | undefined;
  const schema = (route.schema ?? {}) as RouteSchema;
  const secured = listOf(route.onRequest).includes(app.requireUser as never);
  const takesBody = methods.some((m) => BODY_METHODS.has(m));
  const acceptsKey = config?.stateChanging === true || takesBody;
  const keepsAnswers = routeMayKeep(route.method, config);
  const bodyNames = propertyNames(body);
  const hashes = bodyNames.has('password') || bodyNames.has('new_password');
  const hasInput =
    schema.body !== undefined ||
    schema.querystring !== undefined ||
    schema.params !== undefined ||
    schema.headers !== undefined;

  const answers = new Map<ErrorStatus, { codes: string[]; notes: string[] }>();
  const answer = (status: ErrorStatus, codes: readonly string[], note?: string) => {
    const entry = answers.get(status) ?? { codes: [], notes: [] };
    entry.codes.push(...codes);
    if (note) entry.notes.push(note);
    answers.set(status, entry);
  };

  if (hasInput) answer(400, ['invalid'], 'a field breaks its rule (`errors` names each field)');
  // plugins/input-guard.ts, before routing: no column can hold a NUL.
  answer(400, ['invalid'], 'a NUL character (`%00`) in the path or query');
  if (takesBody) answer(400, ['invalid_json'], 'the body is not JSON');
  if (keepsAnswers)
    answer(
      400,
      ['invalid_idempotency_key'],
      `the ${IDEMPOTENCY_KEY_HEADER} is longer than ${IDEMPOTENCY_KEY_MAX} characters`,
    );
  if (secured)
    answer(401, ['token_not_valid'], 'no bearer token, or one that is expired, forged or of an ended session');
  else if (listOf(route.onRequest).includes(app.refuseBadToken as never))
    answer(401, ['token_not_valid'], 'a bearer token that is expired, forged or of an ended session (none: no player)');
  if (bodyNames.has('reauth'))
    answer(
      403,
      ['reauth_required'],
      'no proof of the account (its `password` or a `reauth` from /auth/reauth/) came with the call',
    );
  if (/\/:(\w*_)?id\b/i.test(route.url))
    answer(404, ['not_found'], 'nothing with this id for this player (or a `…_not_found` code naming the thing)');
  if (keepsAnswers) {
    answer(409, ['idempotency_in_progress'], `a request with this ${IDEMPOTENCY_KEY_HEADER} is still running`);
    answer(422, ['idempotency_key_reused'], `this ${IDEMPOTENCY_KEY_HEADER} was used for another call or body`);
  }
  if (takesBody) {
    answer(413, ['fst_err_ctp_body_too_large'], 'the body is over 64 KiB');
    answer(415, ['fst_err_ctp_invalid_media_type'], 'a body that is not `application/json`');
  }
  answer(429, ['rate_limited'], 'the request-rate limit of this player or address (decisions §12)');
  if (config?.signIn === true || hashes) answer(429, ['throttled'], 'the sign-in attempt or sign-up limits');
  answer(503, ['shutting_down'], 'the server is restarting');
  if (hashes) answer(503, ['busy'], 'too many passwords are being checked; nothing was checked');
  for (const [status, codes] of Object.entries(config?.answers ?? {}))
    answer(Number(status) as ErrorStatus, codes ?? [], undefined);

  const responses: Record<string, JsonSchema> = {};
  for (const [status, { codes, notes }] of [...answers].sort(([a], [b]) => a - b)) {
    const why = notes.length ? `: ${notes.join('; ')}` : '';
    const extra = status === 400 ? " A refusal by the call's own business rules is a 400 too (decisions §4)." : '';
    responses[status] = {
      description: `${STATUS_TEXT[status]}${why}.${extra} Codes: ${codeList(codes)}.`,
      ...(status === 429
        ? { headers: retryAfter('always sent') }
        : status === 503
          ? { headers: retryAfter('sent whenever the wait is known: `shutting_down`, `busy`, `chain_unavailable`') }
          : {}),
      $ref: API_ERROR_REF,
    };
  }
  const idempotencyHeader = acceptsKey
    ? {
        type: 'string',
        maxLength: IDEMPOTENCY_KEY_MAX,
        description: keepsAnswers
          ? `Optional, any text up to ${IDEMPOTENCY_KEY_MAX} characters. A repeat with the same key from the same player within 24 hours answers the first answer again (header \`Idempotent-Replayed: true\`) and changes nothing; the same key with another call or body answers 422.`
          : 'Accepted and ignored: a sign-in call keeps no answer (it would hold tokens).',
      }
    : null;
  // A `password` beside no confirmation is the account's own, checked (a new one comes with `confirm_password`).
  const checksPassword = bodyNames.has('password') && !bodyNames.has('confirm_password');
  return { secured, responses, idempotencyHeader, checksPassword };
}

/**
 * @fastify/swagger's `transform`: fastify-type-provider-zod's for the answers, the request parts
 * converted here (refinements in words), then the derived answers, security and header.
 */
export function apiDocTransform(app: FastifyInstance) {
  return (input: TransformInput & { route: RouteOptions }) => {
    const schema = input.schema as RouteSchema | undefined;
    if (!schema || schema.hide) return jsonSchemaTransform(input);
    const { body, querystring, params, headers, ...rest } = schema;
    const base = jsonSchemaTransform({ ...input, schema: rest as TransformInput['schema'] });
    const out = base.schema as RouteSchema;
    const parts = { body, querystring, params, headers };
    for (const [part, zodSchema] of Object.entries(parts)) {
      if (zodSchema instanceof $ZodType) out[part] = requestJsonSchema(zodSchema);
      else if (zodSchema !== undefined) out[part] = zodSchema;
    }
    const { secured, responses, idempotencyHeader, checksPassword } = describeRoute(
      app,
      input.route,
      out.body as JsonSchema | undefined,
    );
    const own = (out.response as Record<string, JsonSchema> | undefined) ?? {};
    // A call that signs in (its answer carries `device`) or checks a password reads the known-device strings.
    const readsDevice =
      checksPassword ||
      Object.entries(own).some(([status, schema]) => status.startsWith('2') && propertyNames(schema).has('device'));
    // Without a response schema @fastify/swagger lists a bare 200; with the error answers added it would list none.
    const success = Object.keys(own).some((status) => status.startsWith('2'))
      ? {}
      : { 200: { description: 'Default Response' } };
    out.response = { ...success, ...own, ...responses };
    if (secured) out.security = [{ bearer: [] }];
    const documented: JsonSchema = {
      ...(idempotencyHeader ? { [IDEMPOTENCY_KEY_HEADER]: idempotencyHeader } : {}),
      ...(readsDevice ? { 'X-Device': DEVICE_HEADER_SCHEMA } : {}),
    };
    if (Object.keys(documented).length > 0) {
      const h = (out.headers as JsonSchema | undefined) ?? { type: 'object', properties: {} };
      out.headers = { ...h, properties: { ...(h.properties as JsonSchema), ...documented } };
    }
    return { schema: out as FastifySchema, url: base.url };
  };
}
