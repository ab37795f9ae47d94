// Property-based fuzzing of every call in the OpenAPI document (so routes added later are fuzzed
// too): fast-check builds thousands of requests — path params, queries and JSON bodies of wrong
// types, nulls, nested arrays/objects, huge and unicode strings, extreme numbers, broken JSON,
// wrong content types, odd headers — sent signed in and signed out. Whatever arrives, the server
// answers without a 5xx (503 `payments_unavailable` aside), every refusal has the API's
// {detail, code} shape, and every status is one the document lists for the operation (decisions
// §15; a path param like `..` that makes the URL another path is the router's 404/405, no operation's). The hand-picked cases live in malformed-input.test.ts; this one explores.
import type { InjectOptions } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quickUser } from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

/** Requests per operation and auth state (~57 operations × 2 × this ≈ 2,800 per database). */
const RUNS = 25;

interface PropSchema {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  minimum?: number;
  maximum?: number;
  anyOf?: PropSchema[];
}
interface Operation {
  method: string;
  /** The statuses the document lists for the operation. */
  statuses: Set<number>;
  path: string;
  params: string[];
  query: string[];
  body: Record<string, PropSchema> | null;
}

function operations(doc: { paths: Record<string, Record<string, Record<string, unknown>>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    if (!path.startsWith('/api/v1/')) continue;
    for (const [method, op] of Object.entries(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const parameters = (op.parameters as { in: string; name: string }[] | undefined) ?? [];
      const content = (
        op.requestBody as
          { content?: Record<string, { schema?: { properties?: Record<string, PropSchema> } }> } | undefined
      )?.content;
      const schema = content?.['application/json']?.schema;
      ops.push({
        method: method.toUpperCase(),
        statuses: new Set(Object.keys(op.responses as object).map(Number)),
        path,
        params: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        body: schema ? (schema.properties ?? {}) : null,
      });
    }
  }
  return ops;
}

// ---- values -------------------------------------------------------------------------------------

const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 60,
});
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom(0, -0, -1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, -(2 ** 53) - 2, 1e308, -1e308, 5e-324, 1.5),
  fc.double(), // NaN and ±Infinity become null in JSON
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }), // any code point, lone surrogates and NUL included
  fc.integer({ min: 300, max: 40_000 }).map((n) => 'ж'.repeat(n)),
  fc.jsonValue({ maxDepth: 3 }),
  fc.integer({ min: 1, max: 60 }).map((depth) => JSON.parse('['.repeat(depth) + ']'.repeat(depth))),
  fc.constantFrom(
    { $gt: '' },
    { __proto__: { admin: true } },
    [null],
    [[]],
    {},
    '',
    ' ',
    '0x',
    'null',
    'true',
    '1e999',
    '-1',
  ),
);

/** A value the field might accept (so handlers past validation get fuzzed too), from its schema. */
function plausible(schema: PropSchema): fc.Arbitrary<unknown> {
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const alt = schema.anyOf?.find((s) => s.type !== 'null');
  if (alt) return plausible(alt);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -1000, -(2 ** 40)),
        max: Math.min(schema.maximum ?? 1000, 2 ** 40),
      });
    case 'number':
      return fc.double({ noNaN: true, min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6 });
    case 'boolean':
      return fc.boolean();
    case 'object':
      return fc.dictionary(fc.constantFrom('p256dh', 'auth', 'x'), fc.string({ maxLength: 90 }));
    default:
      return fc.oneof(
        fc.emailAddress(),
        fc.constantFrom(
          'secret123',
          'Player_1',
          'https://push.example.com/x',
          `0x${'ab'.repeat(20)}`,
          'twitter',
          'telegram',
          'en',
          'ru',
        ),
        fc.string({ maxLength: 30 }),
      );
  }
}

const fieldValue = (schema: PropSchema) =>
  fc.oneof({ weight: 2, arbitrary: plausible(schema) }, { weight: 3, arbitrary: hostile });

/** Text as it would appear in a URL: percent-encoded, or sometimes raw and possibly broken. */
const urlPart = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .oneof(
        fc.string({ unit: 'grapheme', maxLength: 30 }),
        fc.integer().map(String),
        fc.nat().map(String),
        hostile.map((v) => JSON.stringify(v) ?? ''),
      )
      .map((s) => encodeURIComponent(s.toWellFormed()).slice(0, 2000)),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '%',
      '%E0%A4%A',
      '%ff%fe',
      '..',
      '%2e%2e',
      '%2F',
      '-1',
      '1e3',
      '99999999999999999999',
      'a'.repeat(400),
      '%00',
    ),
  },
);

interface Fuzzed {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

function requestFor(op: Operation, signedIn: boolean, access: string): fc.Arbitrary<Fuzzed> {
  const path = fc.tuple(...op.params.map(() => urlPart)).map((values) => {
    let i = 0;
    return op.path.replace(/\{[^}]+\}/g, () => values[i++] ?? '1');
  });
  const queryName = fc.oneof(
    fc.constantFrom(...op.query, 'page', 'lang', '__proto__', 'a[b]'),
    printable.map(encodeURIComponent),
  );
  const query = fc
    .array(fc.tuple(queryName, urlPart), { maxLength: 5 })
    .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));

  const props = op.body ?? {};
  const jsonBody = fc
    .tuple(
      fc.record(Object.fromEntries(Object.entries(props).map(([name, s]) => [name, fieldValue(s)])), {
        requiredKeys: [],
      }),
      fc.dictionary(printable, hostile, { maxKeys: 2 }),
    )
    .map(([known, extra]) => JSON.stringify({ ...extra, ...known }));
  const body: fc.Arbitrary<{ payload?: string; contentType?: string }> = fc.oneof(
    { weight: 5, arbitrary: jsonBody.map((payload) => ({ payload, contentType: 'application/json' })) },
    {
      weight: 1,
      arbitrary: hostile.map((v) => ({ payload: JSON.stringify(v) ?? 'undefined', contentType: 'application/json' })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(jsonBody, fc.nat()).map(([json, cut]) => ({
        payload: json.slice(0, cut % Math.max(1, json.length)),
        contentType: 'application/json',
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.oneof(jsonBody, fc.string({ maxLength: 100 })),
          fc.constantFrom(
            'text/plain',
            'application/xml',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/json; charset=utf-16',
            'application/json; charset=latin1',
            'application/*',
            '',
          ),
        )
        .map(([payload, contentType]) => ({ payload, contentType })),
    },
    { weight: 1, arbitrary: fc.constant({}) },
  );

  const authorization = signedIn
    ? fc.oneof(
        { weight: 6, arbitrary: fc.constant(`Bearer ${access}`) },
        { weight: 1, arbitrary: fc.constant(`Bearer ${access.slice(0, -2)}xx`) },
      )
    : fc.oneof(
        fc.constant(undefined),
        printable.map((s) => `Bearer ${s}`),
        printable,
        fc.constant('Basic dXNlcjpwYXNz'),
        fc.constant(`Bearer ${access.split('.').slice(0, 2).join('.')}.`),
      );
  const idempotencyKey = fc.option(
    fc.oneof(
      printable,
      fc.integer({ min: 190, max: 400 }).map((n) => 'k'.repeat(n)),
    ),
    { nil: undefined },
  );

  return fc
    .record({ path, query, body, authorization, idempotencyKey })
    .map(({ path, query, body, authorization, idempotencyKey }) => {
      const headers: Record<string, string> = {};
      if (authorization !== undefined) headers.authorization = authorization;
      if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
      const sendBody = op.method !== 'GET' || body.payload === undefined ? body : {};
      if (sendBody.contentType !== undefined && sendBody.contentType !== '')
        headers['content-type'] = sendBody.contentType;
      return {
        method: op.method,
        url: path + query,
        headers,
        ...(sendBody.payload !== undefined ? { payload: sendBody.payload } : {}),
      };
    });
}

/** Why an answer breaks the rules, or null when it is fine. */
function problemOf(op: Operation, status: number, text: string): string | null {
  let body: { detail?: unknown; code?: unknown } | null = null;
  try {
    body = JSON.parse(text);
  } catch {
    /* checked below */
  }
  if (status >= 500)
    return status === 503 && body?.code === 'payments_unavailable' ? null : `${status}: ${text.slice(0, 200)}`;
  if (status < 400) return null;
  if (!body) return `${status} not JSON: ${text.slice(0, 100)}`;
  if (typeof body.detail !== 'string' || typeof body.code !== 'string')
    return `${status} without detail/code: ${text.slice(0, 200)}`;
  const routing =
    body.code === 'method_not_allowed' || (body.code === 'not_found' && String(body.detail).startsWith('No route '));
  if (!op.statuses.has(status) && !routing)
    return `${status} is not in the document (${[...op.statuses].join(', ')}): ${text.slice(0, 200)}`;
  return null;
}

const shorten = (r: Fuzzed) =>
  JSON.stringify({
    ...r,
    payload:
      r.payload && r.payload.length > 300 ? `${r.payload.slice(0, 300)}… (${r.payload.length} chars)` : r.payload,
  }).slice(0, 700);

describe.each(testDialects())('fuzzing every call on %s', (dialect) => {
  let t: TestApp;
  let access: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ access } = await quickUser(t, {
      username: `fuzz${dialect}`,
      email: `fuzz.${dialect}@example.com`,
      emailConfirmed: true,
    }));
    // A running session, so the mining calls get past "nothing to claim/apply".
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/v1/mining/start/',
          headers: { authorization: `Bearer ${access}` },
        })
      ).statusCode,
    ).toBe(200);
  });
  afterAll(() => t.close());

  it('answers no 5xx to thousands of malformed requests, signed in and out', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThanOrEqual(50);
    const failures: string[] = [];
    let sent = 0;
    for (const op of ops) {
      for (const signedIn of [true, false]) {
        const details = await fc.check(
          fc.asyncProperty(requestFor(op, signedIn, access), async (r) => {
            const res = await t.app.inject({
              method: r.method as InjectOptions['method'],
              url: r.url,
              headers: r.headers,
              payload: r.payload,
            });
            sent++;
            const problem = problemOf(op, res.statusCode, res.body);
            if (problem) throw new Error(problem);
          }),
          { numRuns: RUNS, endOnFailure: true },
        );
        if (details.failed) {
          const example = details.counterexample?.[0] as Fuzzed | undefined;
          failures.push(
            `${op.method} ${op.path}${signedIn ? ' (signed in)' : ''}: ${(details.errorInstance as Error | undefined)?.message ?? 'failed'} ← ${example ? shorten(example) : '?'} (seed ${details.seed})`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(ops.length * 2 * RUNS);
  }, 100_000);
});
