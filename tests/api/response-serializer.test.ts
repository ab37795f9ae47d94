// Answers are written by serialisers compiled from the zod response schemas (server/lib/
// response-serializer.ts) instead of zod parsing each one. Like zod's stripping, they must write
// only what the schema names: a handler that hands over a whole database row (password hash,
// referrer, internal flags) must not leak the columns the schema leaves out, at any depth.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meSchema } from '@shared/api/auth';
import { sessionsPageSchema } from '@shared/api/mining';
import { compiledResponseSchema } from '../../server/lib/response-serializer';
import { apiCall, createPlayer } from '../helpers/players';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('response serialisers on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, {}, (app) => {
      app.get('/api/v1/test/missing', { schema: { response: { 200: meSchema } } }, async () => ({ username: 'x' }));
      // Handlers that (wrongly) spread whole rows into their answers.
      app.get('/api/v1/test/me-with-row/:id', { schema: { response: { 200: meSchema } } }, async (request) => {
        const id = Number((request.params as { id: string }).id);
        const row = await app.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        return {
          ...row,
          username: row.username ?? '',
          email: '',
          wallet_address: '',
          balance: 0,
          token: 0,
          gems: 0,
          referral_link: '',
          password_set: true,
          mining: false,
          ico: false,
          language: false,
        };
      });
      app.get(
        '/api/v1/test/sessions-with-rows/:id',
        { schema: { response: { 200: sessionsPageSchema } } },
        async (request) => {
          const id = Number((request.params as { id: string }).id);
          const boost = await app.db
            .selectFrom('temp_boosts')
            .selectAll()
            .where('user_id', '=', id)
            .executeTakeFirstOrThrow();
          const session = { user_id: id, auto: 0, task_boost_percent: 0, ready_notified_at: null };
          return {
            count: 1,
            next: null,
            previous: null,
            secret_total: 42,
            results: [
              {
                ...session,
                id: 1,
                started_at: 'a',
                ends_at: 'b',
                claimed: false,
                claimed_at: null,
                rate_per_hour: 1,
                boost_percent: 0,
                reward: 0,
                temporary_boosts: [{ ...boost, boost_id: Number(boost.id), starts_at: 'a', ends_at: 'b', value: 1 }],
              },
            ],
          };
        },
      );
    });
  });
  afterAll(() => t.close());

  it('writes the hot reads with compiled serialisers', () => {
    expect(compiledResponseSchema(meSchema)).not.toBeNull();
    expect(compiledResponseSchema(sessionsPageSchema)).not.toBeNull();
  });

  it('leaves out the columns of a row the schema does not name', async () => {
    const p = await createPlayer(t, { passwordHash: 'scrypt$not-a-real-hash' });
    const res = await apiCall(t, p, 'GET', `/test/me-with-row/${p.id}`);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(Object.keys(meSchema.shape).sort());
    for (const column of ['password_hash', 'referral_code', 'referrer_id', 'created_at', 'id'])
      expect(res.body).not.toContain(`"${column}"`);
  });

  it('leaves them out inside arrays and nested objects too', async () => {
    const p = await createPlayer(t);
    const res = await apiCall(t, p, 'GET', `/test/sessions-with-rows/${p.id}`);
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page).toEqual({
      count: 1,
      next: null,
      previous: null,
      results: [
        {
          id: 1,
          started_at: 'a',
          ends_at: 'b',
          claimed: false,
          claimed_at: null,
          rate_per_hour: 1,
          boost_percent: 0,
          reward: 0,
          temporary_boosts: [
            { boost_id: page.results[0].temporary_boosts[0].boost_id, starts_at: 'a', ends_at: 'b', value: 1 },
          ],
        },
      ],
    });
    for (const column of ['user_id', 'secret_total', 'source', 'duration_seconds', 'ready_notified_at'])
      expect(res.body).not.toContain(`"${column}"`);
  });

  it('still refuses an answer that misses a field the schema requires (a fault, not a quiet default)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/test/missing' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ code: 'server_error' });
  });
});
