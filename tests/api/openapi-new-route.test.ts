// A route added later is described without anyone touching the document (decisions §15): a plugin
// registered the way a new area would be (its own zod schemas, requireUserOnEveryRoute or a
// route-level requireUser, a state-changing call) gets its error answers, security, the
// Idempotency-Key header and its rules, refine() included, from lib/openapi-answers.ts; and its
// path answers another method with 405.
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { requireUserOnEveryRoute } from '../../server/plugins/auth';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const bodySchema = z.object({
  name: z
    .string()
    .min(2)
    .max(20)
    .refine((v) => v !== 'admin', 'That name is reserved'),
  colour: z.enum(['red', 'green']),
  reauth: z.string().max(200).optional(),
});

async function newArea(app: FastifyInstance) {
  await app.register(
    async (area) => {
      requireUserOnEveryRoute(area);
      area.post(
        '/things/:id/',
        { schema: { tags: ['things'], params: z.object({ id: z.coerce.number().int().min(1) }), body: bodySchema } },
        async () => ({ ok: true }),
      );
    },
    { prefix: '/api/v1' },
  );
  await app.register(async (area) => {
    area.get(
      '/api/v1/things/',
      {
        schema: {
          tags: ['things'],
          querystring: z.object({ page: z.coerce.number().int().min(1).max(50).optional() }),
        },
      },
      async () => ({ ok: true }),
    );
  });
}

describe.each(testDialects())('a route added later on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, {}, (app) => {
      void newArea(app);
    });
  });
  afterAll(() => t.close());

  it('is described with its answers, security, Idempotency-Key and rules', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const post = doc.paths['/api/v1/things/{id}/'].post;
    expect(post.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(post.responses)).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '415',
      '422',
      '429',
      '503',
    ]);
    expect(post.responses['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ApiError' });
    expect(post.responses['403'].description).toContain('`reauth_required`');
    expect(post.responses['429'].headers['Retry-After']).toBeDefined();
    const header = post.parameters.find((p: { in: string }) => p.in === 'header');
    expect(header).toMatchObject({
      name: 'Idempotency-Key',
      required: false,
      schema: { type: 'string', maxLength: 200 },
    });
    const body = post.requestBody.content['application/json'].schema;
    expect(body.properties.name).toMatchObject({
      type: 'string',
      minLength: 2,
      maxLength: 20,
      description: 'Refused with “That name is reserved” when a further check fails.',
    });
    expect(body.properties.colour).toMatchObject({ enum: ['red', 'green'] });
    expect(body.required).toEqual(['name', 'colour']);

    const get = doc.paths['/api/v1/things/'].get;
    expect(get.security).toBeUndefined();
    expect(Object.keys(get.responses)).toEqual(['200', '400', '429', '503']);
    expect(get.parameters).toEqual([
      expect.objectContaining({
        in: 'query',
        name: 'page',
        schema: expect.objectContaining({ minimum: 1, maximum: 50 }),
      }),
    ]);
  });

  it('answers what it documents: 401 without a token, 405 with Allow for another method', async () => {
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/things/1/', payload: { name: 'ab', colour: 'red' } }))
        .statusCode,
    ).toBe(401);
    const res = await t.app.inject({ method: 'DELETE', url: '/api/v1/things/' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });
});
