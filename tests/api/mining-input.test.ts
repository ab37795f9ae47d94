import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, createPlayer, type TestPlayer } from '../helpers/players';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

type Method = 'GET' | 'POST';
const ROUTES: [Method, string][] = [
  ['GET', '/mining/start/'],
  ['GET', '/mining/claim/'],
  ['GET', '/mining/boosts/'],
  ['GET', '/mining/sessions/'],
  ['POST', '/mining/select-temp-boost/'],
  ['POST', '/mining/apply-temp-boost/'],
  ['POST', '/mining/reward-task-boost/'],
  ['GET', '/mining/reward-referral-boost/'],
  ['GET', '/mining/shop/'],
  ['POST', '/mining/shop/buy/'],
  ['POST', '/mining/auto-start/'],
  ['GET', '/payments/items/'],
  ['POST', '/payments/top-up/'],
  ['GET', '/assets/list/'],
  ['GET', '/assets/detail/1/'],
  ['GET', '/subscriptions/'],
  ['GET', '/subscriptions/1/'],
];

const BAD_BOOST_IDS: unknown[] = [undefined, null, '1', -1, 0, 1.5, 1e20, true, [], {}, 'x'.repeat(5000)];

const BAD_BODIES: Record<string, unknown[]> = {
  '/mining/select-temp-boost/': [...BAD_BOOST_IDS.map((boost_id) => ({ boost_id })), {}],
  '/mining/apply-temp-boost/': [
    ...BAD_BOOST_IDS.map((boost_id) => ({ boost_id, force_apply: true })),
    { boost_id: 1, force_apply: 'yes' },
    { boost_id: 1, force_apply: 1 },
    { boost_id: 1, force_apply: null },
  ],
  '/mining/reward-task-boost/': [
    {},
    { task_title: '' },
    { task_title: '   ' },
    { task_title: 42 },
    { task_title: null },
    { task_title: 'x'.repeat(10_000) },
    { task_title: ['Добавить никнейм'] },
    { task_title: 'Unknown task' },
  ],
  '/mining/shop/buy/': [
    {},
    { item_id: 'boost_2h' },
    { item_id: 1 },
    { item_id: null },
    { item_id: 'x'.repeat(10_000) },
    { item_id: { id: 'boost_1h' } },
  ],
  '/payments/top-up/': [
    {},
    { item_id: 'gems_50' },
    { method: 'card' },
    { item_id: 'gems_50', method: 'bitcoin' },
    { item_id: 'gems_51', method: 'card' },
    { item_id: 50, method: 'card' },
    { item_id: 'gems_50', method: ['card'] },
  ],
};
const RAW_BODIES = ['not json', '{', '{"boost_id":', '[1,2', '"\\u0000"'];

describe.each(testDialects())('mining input checks on %s', (dialect) => {
  let t: TestApp;
  let p: TestPlayer;
  beforeAll(async () => {
    t = await createTestApp(dialect, { PAYMENTS_PROVIDER: 'test' });
    p = await createPlayer(t);
  });
  afterAll(() => t.close());

  const expect4xx = (res: { statusCode: number; json(): any }, what: string) => {
    expect(res.statusCode, what).toBeGreaterThanOrEqual(400);
    expect(res.statusCode, what).toBeLessThan(500);
    expect(typeof res.json().code, what).toBe('string');
    expect(typeof res.json().detail, what).toBe('string');
  };

  it('answers 401 token_not_valid to every call without a valid token', async () => {
    for (const [method, url] of ROUTES) {
      const none = await apiCall(t, null, method, url, method === 'POST' ? {} : undefined);
      expect(none.statusCode, `${method} ${url}`).toBe(401);
      expect(none.json().code).toBe('token_not_valid');
      const forged = await apiCall(
        t,
        { id: p.id, token: `${p.token}x` },
        method,
        url,
        method === 'POST' ? {} : undefined,
      );
      expect(forged.statusCode, `${method} ${url} forged`).toBe(401);
    }
  });

  it('answers 4xx with field errors to malformed bodies', async () => {
    for (const [url, bodies] of Object.entries(BAD_BODIES)) {
      for (const body of bodies) {
        expect4xx(await apiCall(t, p, 'POST', url, body), `${url} ${JSON.stringify(body)?.slice(0, 60)}`);
      }
      for (const raw of RAW_BODIES) expect4xx(await apiCall(t, p, 'POST', url, raw), `${url} raw ${raw}`);
    }
    const field = await apiCall(t, p, 'POST', '/mining/apply-temp-boost/', { boost_id: 'one', force_apply: false });
    expect(field.json().errors[0].field).toBe('boost_id');
    for (const raw of RAW_BODIES)
      expect4xx(await apiCall(t, p, 'POST', '/mining/auto-start/', raw), `auto-start raw ${raw}`);
  });

  it('answers 4xx to bad query strings and ids', async () => {
    for (const q of [
      'page=0',
      'page=-1',
      'page=abc',
      'page=1.5',
      'page=1e10',
      'page_size=0',
      'page_size=101',
      'page_size=x',
      `page=${'9'.repeat(400)}`,
    ]) {
      expect4xx(await apiCall(t, p, 'GET', `/mining/sessions/?${q}`), q);
    }
    for (const base of ['/assets/detail/', '/subscriptions/']) {
      for (const id of ['abc', '0', '-1', '1.5', '99999999999999999999', '1e3x', '%00']) {
        expect4xx(await apiCall(t, p, 'GET', `${base}${id}/`), `${base}${id}/`);
      }
      // Well-formed ids that are nobody's, or someone else's: 404.
      expect((await apiCall(t, p, 'GET', `${base}123456789/`)).statusCode).toBe(404);
    }
    const other = await createPlayer(t);
    const othersBoost = await t.app.db
      .selectFrom('temp_boosts')
      .select('id')
      .where('user_id', '=', other.id)
      .executeTakeFirstOrThrow();
    expect((await apiCall(t, p, 'GET', `/assets/detail/${othersBoost.id}/`)).statusCode).toBe(404);
  });

  it('refuses an over-long Idempotency-Key on state-changing mining calls', async () => {
    for (const [method, url] of [
      ['GET', '/mining/claim/'],
      ['GET', '/mining/start/'],
      ['POST', '/mining/auto-start/'],
    ] as [Method, string][]) {
      const res = await apiCall(t, p, method, url, undefined, { 'idempotency-key': 'k'.repeat(500) });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().code).toBe('invalid_idempotency_key');
    }
  });
});
