// Sends malformed input to every route of the OpenAPI document (so routes added later are covered
// without touching this file) and checks that nothing answers 5xx and every error has the API's
// shape {detail, code}. Bounded: about a dozen requests per operation.
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quickUser } from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};
interface Operation {
  method: string;
  path: string;
  bodyProps: Record<string, JsonSchema> | null;
  queryNames: string[];
}

const HUGE = 'x'.repeat(100 * 1024);
const BIG = 'y'.repeat(20 * 1024);
const WITH_CONTROL = 'a\u0000b\u0007@c.d\u202e\ud800';

function typeOf(schema: JsonSchema | undefined): string {
  if (!schema) return 'string';
  const t = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (t) return t;
  const alt = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  return alt ? typeOf(alt) : 'string';
}

/** A value of the wrong JSON type for a property. */
function wrongType(schema: JsonSchema): unknown {
  switch (typeOf(schema)) {
    case 'string':
      return 12345;
    case 'number':
    case 'integer':
      return 'not-a-number';
    case 'boolean':
      return 'yes';
    case 'array':
      return { not: 'an array' };
    default:
      return ['not', 'an', 'object'];
  }
}

function bodyFor(props: Record<string, JsonSchema>, value: (name: string, s: JsonSchema) => unknown): string {
  const names = Object.keys(props);
  return JSON.stringify(
    names.length
      ? Object.fromEntries(names.map((n) => [n, value(n, props[n])]))
      : { unexpected: value('unexpected', {}) },
  );
}

function operations(doc: { paths: Record<string, Record<string, Record<string, unknown>>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    if (!path.startsWith('/api/v1/')) continue;
    for (const [method, op] of Object.entries(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const content = (op.requestBody as { content?: Record<string, { schema?: JsonSchema }> } | undefined)?.content;
      const bodySchema = content?.['application/json']?.schema;
      const params = (op.parameters as { in: string; name: string }[] | undefined) ?? [];
      ops.push({
        method: method.toUpperCase(),
        path,
        bodyProps: bodySchema ? (bodySchema.properties ?? {}) : null,
        queryNames: params.filter((p) => p.in === 'query').map((p) => p.name),
      });
    }
  }
  return ops;
}

/** The requests for one operation: bad path params, bad query, bad bodies. */
function casesFor(op: Operation): { label: string; options: InjectOptions }[] {
  const hasParams = /\{[^}]+\}/.test(op.path);
  const fill = (value: string) => op.path.replace(/\{[^}]+\}/g, value);
  const url = fill('1');
  const method = op.method as InjectOptions['method'];
  const cases: { label: string; options: InjectOptions }[] = [];
  const json = (label: string, payload: string, contentType = 'application/json') =>
    cases.push({ label, options: { method, url, payload, headers: { 'content-type': contentType } } });

  if (hasParams) {
    for (const bad of ['abc', '-1', '99999999999999999999', '%00%ff', 'z'.repeat(250), '%E0%A4%A']) {
      cases.push({
        label: `path ${bad.slice(0, 20)}`,
        options: { method, url: fill(bad), ...(op.bodyProps ? { payload: {} } : {}) },
      });
    }
  }
  const query = op.queryNames.length ? op.queryNames : ['page'];
  const qs = query.map((n) => `${n}=a&${n}=b&${n}=${encodeURIComponent(BIG)}`).join('&');
  cases.push({
    label: 'query arrays/huge',
    options: { method, url: `${url}?${qs}`, ...(op.bodyProps ? { payload: {} } : {}) },
  });
  cases.push({
    label: 'query control chars',
    options: {
      method,
      url: `${url}?${query.map((n) => `${n}=%00%01%ff`).join('&')}`,
      ...(op.bodyProps ? { payload: {} } : {}),
    },
  });

  if (op.bodyProps) {
    const props = op.bodyProps;
    json('broken JSON', '{"a": ');
    json('null', 'null');
    json('array', '[1, {"a": 2}]');
    json('string', '"just a string"');
    json('empty', '');
    json(
      'wrong types',
      bodyFor(props, (_, s) => wrongType(s)),
    );
    json(
      'nulls',
      bodyFor(props, () => null),
    );
    json(
      'nested',
      bodyFor(props, () => ({ $gt: '', __proto__: { admin: true } })),
    );
    json(
      'huge strings',
      bodyFor(props, () => HUGE),
    );
    json(
      'big strings',
      bodyFor(props, () => BIG),
    );
    json(
      'control chars',
      bodyFor(props, () => WITH_CONTROL),
    );
    json(
      'extreme numbers',
      bodyFor(props, (_, s) => (typeOf(s) === 'string' ? '1e999' : 1e308)),
    );
    json('text/plain', 'hello', 'text/plain');
    json('xml', '<a>1</a>', 'application/xml');
    json('form', 'a=1&b=2', 'application/x-www-form-urlencoded');
  }
  return cases;
}

describe.each(testDialects())('malformed input on every route on %s', (dialect) => {
  let t: TestApp;
  let access: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ access } = await quickUser(t, {
      username: `mal${dialect}`,
      email: `malformed.${dialect}@example.com`,
      emailConfirmed: true,
    }));
  });
  afterAll(() => t.close());

  it('answers no 5xx, and errors carry detail and code', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThanOrEqual(20);
    expect(ops.map((o) => `${o.method} ${o.path}`)).toContain('POST /api/v1/auth/register/');

    const problems: string[] = [];
    let sent = 0;
    for (const op of ops) {
      const cases = casesFor(op);
      // Signed in: every case. Signed out: a few (a route that needs sign-in stops at 401 anyway).
      const runs = [
        ...cases.map((c) => ({ ...c, auth: true })),
        ...cases
          .filter((c) => ['broken JSON', 'wrong types', 'nulls', 'query arrays/huge', 'path abc'].includes(c.label))
          .map((c) => ({ ...c, auth: false })),
      ];
      for (const run of runs) {
        const headers = {
          ...(run.options.headers as Record<string, string> | undefined),
          ...(run.auth ? { authorization: `Bearer ${access}` } : {}),
        };
        const res = await t.app.inject({ ...run.options, headers });
        sent++;
        const where = `${op.method} ${op.path} [${run.label}${run.auth ? ', signed in' : ''}] → ${res.statusCode}`;
        if (res.statusCode >= 500) {
          problems.push(`${where}: ${res.body.slice(0, 200)}`);
          continue;
        }
        if (res.statusCode >= 400) {
          let body: { detail?: unknown; code?: unknown } = {};
          try {
            body = res.json();
          } catch {
            problems.push(`${where}: not JSON: ${res.body.slice(0, 100)}`);
            continue;
          }
          if (typeof body.detail !== 'string' || typeof body.code !== 'string')
            problems.push(`${where}: no detail/code: ${res.body.slice(0, 200)}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(sent).toBeGreaterThan(ops.length * 5);
  }, 120_000);
});
