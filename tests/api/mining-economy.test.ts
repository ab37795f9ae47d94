import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMiningWorker, type SessionReady } from '../../server/workers/mining-worker';
import { endSession, openSessionId } from '../helpers/mining';
import { apiCall, balance, createPlayer, grant, ledgerRowsOf, type TestPlayer } from '../helpers/players';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const SESSION_SECONDS = 2;
const DAY = 86_400_000;

describe.each(testDialects())('mining shop, Gems and the Auto Miner on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { MINING_SESSION_SECONDS: String(SESSION_SECONDS), PAYMENTS_PROVIDER: 'test' });
  });
  afterAll(() => t.close());

  const get = (p: TestPlayer, url: string, headers?: Record<string, string>) =>
    apiCall(t, p, 'GET', url, undefined, headers);
  const postJson = (p: TestPlayer, url: string, body?: unknown, headers?: Record<string, string>) =>
    apiCall(t, p, 'POST', url, body, headers);
  const tempBoostCount = async (userId: number) =>
    Number(
      (
        await t.app.db
          .selectFrom('temp_boosts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('lists the shop items from the business constants', async () => {
    const p = await createPlayer(t);
    const res = await get(p, '/mining/shop/');
    expect(res.statusCode).toBe(200);
    expect(res.json().items).toEqual([
      { id: 'boost_1h', hours: 1, duration_seconds: 3600, value: 2, price_gems: 5 },
      { id: 'boost_4h', hours: 4, duration_seconds: 14400, value: 2, price_gems: 15 },
      { id: 'boost_6h', hours: 6, duration_seconds: 21600, value: 2, price_gems: 20 },
      { id: 'boost_12h', hours: 12, duration_seconds: 43200, value: 2, price_gems: 35 },
    ]);
  });

  it('sells a boost for Gems and refuses without enough Gems', async () => {
    const p = await createPlayer(t);
    const poor = await postJson(p, '/mining/shop/buy/', { item_id: 'boost_1h' });
    expect(poor.statusCode).toBe(400);
    expect(poor.json()).toEqual({ detail: 'Not enough Gems', code: 'not_enough_gems' });
    expect(await tempBoostCount(p.id)).toBe(1); // the welcome boost only

    await grant(t, p.id, 'gems', 24);
    const bought = await postJson(p, '/mining/shop/buy/', { item_id: 'boost_6h' });
    expect(bought.statusCode).toBe(200);
    expect(bought.json()).toEqual({
      boost: {
        id: expect.any(Number),
        boost_type: 'temporary',
        is_active: false,
        value: 2,
        is_selected: false,
        duration_seconds: 21600,
      },
      gems: 4,
    });
    expect((await postJson(p, '/mining/shop/buy/', { item_id: 'boost_1h' })).json().code).toBe('not_enough_gems');
    expect(await balance(t, p.id, 'gems')).toBe(4);
    expect((await ledgerRowsOf(t, p.id, 'shop_purchase')).map((r) => [r.currency, r.amount, r.ref])).toEqual([
      ['gems', -20, `temp_boost:${bought.json().boost.id}`],
    ]);

    const assets = (await get(p, '/assets/list/')).json();
    expect(assets).toEqual([
      {
        asset_type: 'temporary_boost',
        duration_seconds: 3600,
        value: 2,
        quantity: 1,
        selected_quantity: 0,
        boost_ids: [expect.any(Number)],
      },
      {
        asset_type: 'temporary_boost',
        duration_seconds: 21600,
        value: 2,
        quantity: 1,
        selected_quantity: 0,
        boost_ids: [bought.json().boost.id],
      },
    ]);
    expect((await get(p, `/assets/detail/${bought.json().boost.id}/`)).json()).toMatchObject({
      state: 'owned',
      source: 'shop',
      session_id: null,
    });
  });

  it('never sells more than the Gems pay for under parallel purchases', async () => {
    const p = await createPlayer(t);
    await grant(t, p.id, 'gems', 15);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => postJson(p, '/mining/shop/buy/', { item_id: 'boost_1h' })),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(3);
    expect(answers.filter((a) => a.statusCode === 400)).toHaveLength(3);
    expect(await balance(t, p.id, 'gems')).toBe(0);
    expect(await tempBoostCount(p.id)).toBe(4);
  });

  it('tops up Gems with the test provider, once per order and once per Idempotency-Key', async () => {
    const p = await createPlayer(t);
    expect((await get(p, '/payments/items/')).json()).toEqual({
      items: [{ id: 'gems_50', gems: 50, price_usd: 4.99 }],
      methods: ['tether', 'sbp', 'card'],
      unavailable: {},
      test_methods: ['tether', 'sbp', 'card'],
    });
    const key = { 'idempotency-key': 'top-up-1' };
    const res = await postJson(p, '/payments/top-up/', { item_id: 'gems_50', method: 'sbp' }, key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      order: {
        id: expect.any(Number),
        item_id: 'gems_50',
        quantity: 1,
        gems: 50,
        price_usd: 4.99,
        method: 'sbp',
        status: 'paid',
        created_at: expect.any(String),
        updated_at: expect.any(String),
        paid_at: expect.any(String),
        expires_at: expect.any(String),
        checkout_url: null,
        pay_to: null,
        tx_hash: null,
        confirmations: null,
        failure: null,
        test: true,
      },
      gems: 50,
    });
    const replay = await postJson(p, '/payments/top-up/', { item_id: 'gems_50', method: 'sbp' }, key);
    expect(replay.json()).toEqual(res.json());
    expect(await balance(t, p.id, 'gems')).toBe(50);

    const again = await postJson(p, '/payments/top-up/', { item_id: 'gems_50', method: 'card' });
    expect(again.json()).toMatchObject({ gems: 100, order: { status: 'paid', method: 'card' } });
    const rows = await ledgerRowsOf(t, p.id, 'top_up');
    expect(rows.map((r) => r.unique_key)).toEqual([`order:${res.json().order.id}`, `order:${again.json().order.id}`]);
    expect(await balance(t, p.id, 'gems')).toBe(100);

    expect((await postJson(p, '/payments/top-up/', { item_id: 'gems_50', method: 'paypal' })).statusCode).toBe(400);
    expect((await postJson(p, '/payments/top-up/', { item_id: 'gems_5000', method: 'card' })).statusCode).toBe(400);
  });

  it('sells the Auto Miner for 150 Gems, starts mining and extends a running period', async () => {
    const p = await createPlayer(t);
    const poor = await postJson(p, '/mining/auto-start/');
    expect(poor.statusCode).toBe(400);
    expect(poor.json()).toEqual({ detail: 'Not enough Gems', code: 'not_enough_gems' });
    expect((await get(p, '/subscriptions/')).json()).toEqual([]);
    expect(await openSessionId(t, p.id)).toBeNull();

    await grant(t, p.id, 'gems', 300);
    const first = await postJson(p, '/mining/auto-start/');
    expect(first.statusCode).toBe(200);
    const sub1 = first.json().subscription;
    expect(sub1).toMatchObject({ price_gems: 150, active: true });
    expect(Date.parse(sub1.expires_at) - Date.parse(sub1.started_at)).toBe(30 * DAY);
    expect(first.json().gems).toBe(150);
    expect(first.json().session).toMatchObject({ claimed: false });

    const second = (await postJson(p, '/mining/auto-start/')).json();
    expect(second.session).toBeNull(); // one is running already
    expect(second.subscription.started_at).toBe(sub1.expires_at);
    expect(second.gems).toBe(0);
    expect(await balance(t, p.id, 'gems')).toBe(0);
    expect((await ledgerRowsOf(t, p.id, 'auto_miner')).map((r) => r.amount)).toEqual([-150, -150]);

    const list = (await get(p, '/subscriptions/')).json();
    expect(list.map((s: { id: number }) => s.id)).toEqual([second.subscription.id, sub1.id]);
    expect((await get(p, `/subscriptions/${sub1.id}/`)).json()).toEqual(sub1);
    const other = await createPlayer(t);
    expect((await get(other, `/subscriptions/${sub1.id}/`)).statusCode).toBe(404);
    expect((await get(p, '/subscriptions/999999/')).statusCode).toBe(404);
  });

  it('lets the worker claim a finished session and start the next, with a selected boost', async () => {
    const p = await createPlayer(t);
    await grant(t, p.id, 'gems', 150);
    const first = (await postJson(p, '/mining/auto-start/')).json().session;
    const boostId = (await get(p, '/mining/boosts/')).json().boosts[0].id;
    await postJson(p, '/mining/select-temp-boost/', { boost_id: boostId });

    // Not finished (pushed an hour ahead, whatever the machine's speed): the worker leaves it.
    await t.app.db
      .updateTable('mining_sessions')
      .set({ ends_at: Date.now() + 3_600_000 })
      .where('id', '=', first.id)
      .execute();
    await t.app.miningWorker.tick();
    expect(await openSessionId(t, p.id)).toBe(first.id);
    await t.app.db
      .updateTable('mining_sessions')
      .set({ ends_at: Date.parse(first.started_at) + SESSION_SECONDS * 1000 })
      .where('id', '=', first.id)
      .execute();

    await endSession(t, first.id);
    await t.app.miningWorker.tick();
    const sessions = (await get(p, '/mining/sessions/')).json().results;
    expect(sessions).toHaveLength(2);
    expect(sessions[1]).toMatchObject({ id: first.id, claimed: true, reward: 0.000555 }); // 2 s at 1 PXT/h, rounded down
    expect(sessions[0]).toMatchObject({ claimed: false, temporary_boosts: [{ boost_id: boostId, value: 2 }] });
    expect(await balance(t, p.id, 'token')).toBe(555);
    expect(await ledgerRowsOf(t, p.id, 'mining_claim')).toHaveLength(1);

    // A manual claim leaves no session: the next tick starts one.
    await endSession(t, sessions[0].id);
    expect((await get(p, '/mining/claim/')).statusCode).toBe(200);
    expect(await openSessionId(t, p.id)).toBeNull();
    const r = await t.app.miningWorker.tick();
    expect(r.started).toBeGreaterThanOrEqual(1);
    expect(await openSessionId(t, p.id)).not.toBeNull();
  });

  it('claims once when several workers tick at the same time', async () => {
    const players: TestPlayer[] = [];
    for (let i = 0; i < 5; i++) {
      const p = await createPlayer(t);
      await grant(t, p.id, 'gems', 150);
      await postJson(p, '/mining/auto-start/');
      players.push(p);
    }
    for (const p of players) await endSession(t, (await openSessionId(t, p.id))!);
    // Another process's worker on the same database.
    const other = createMiningWorker({ db: t.app.db, dialect: t.app.dialect, sessionSeconds: SESSION_SECONDS });
    const now = Date.now();
    const results = await Promise.all([
      t.app.miningWorker.tick(now),
      other.tick(now),
      other.tick(now),
      t.app.miningWorker.tick(now),
    ]);
    expect(results.reduce((n, r) => n + r.claimed, 0)).toBeGreaterThanOrEqual(5);
    for (const p of players) {
      expect(await ledgerRowsOf(t, p.id, 'mining_claim')).toHaveLength(1);
      expect(await balance(t, p.id, 'token')).toBe(555);
      const open = await t.app.db
        .selectFrom('mining_sessions')
        .select('id')
        .where('user_id', '=', p.id)
        .where('claimed', '=', 0)
        .execute();
      expect(open).toHaveLength(1);
    }
  });

  it('leaves sessions alone once the subscription has expired, and tells the ready listeners once', async () => {
    const p = await createPlayer(t);
    await grant(t, p.id, 'gems', 150);
    const session = (await postJson(p, '/mining/auto-start/')).json().session;
    await t.app.db
      .updateTable('auto_miner_subscriptions')
      .set({ started_at: Date.now() - 31 * DAY, expires_at: Date.now() - DAY })
      .where('user_id', '=', p.id)
      .execute();
    expect((await get(p, '/subscriptions/')).json()[0].active).toBe(false);
    await endSession(t, session.id);

    const seen: SessionReady[] = [];
    const worker = createMiningWorker({ db: t.app.db, dialect: t.app.dialect, sessionSeconds: SESSION_SECONDS });
    worker.onSessionReady((e) => {
      if (e.userId === p.id) seen.push(e);
    });
    await worker.tick();
    await worker.tick();
    expect(await openSessionId(t, p.id)).toBe(session.id);
    expect(await ledgerRowsOf(t, p.id, 'mining_claim')).toHaveLength(0);
    expect(seen).toEqual([{ userId: p.id, sessionId: session.id, endsAt: expect.any(Number) }]);
  });
});

describe.each(testDialects())('Gems top-up without a payment provider on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { PAYMENTS_PROVIDER: '' });
  });
  afterAll(() => t.close());

  it('answers 503 payments_unavailable and credits nothing', async () => {
    const p = await createPlayer(t);
    expect((await apiCall(t, p, 'GET', '/payments/items/')).statusCode).toBe(200);
    const res = await apiCall(t, p, 'POST', '/payments/top-up/', { item_id: 'gems_50', method: 'tether' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ detail: 'Payments are not available', code: 'payments_unavailable' });
    expect(await balance(t, p.id, 'gems')).toBe(0);
    expect((await apiCall(t, p, 'GET', '/config/')).json().payments_available).toBe(false);
  });
});

describe.each(testDialects())('the mining worker loop on %s', (dialect) => {
  it('runs by itself from onReady and stops when the app closes', async () => {
    const t = await createTestApp(dialect, {
      MINING_SESSION_SECONDS: String(SESSION_SECONDS),
      WORKER_INTERVAL_MS: '20',
    });
    try {
      const p = await createPlayer(t);
      await grant(t, p.id, 'gems', 150);
      const first = (await apiCall(t, p, 'POST', '/mining/auto-start/')).json().session;
      await endSession(t, first.id);
      // No tick by hand: the loop claims and restarts on its own.
      await vi.waitFor(
        async () =>
          expect((await ledgerRowsOf(t, p.id, 'mining_claim')).map((r) => r.unique_key)).toContain(
            `mining_claim:${first.id}`,
          ),
        { timeout: 20_000, interval: 50 },
      );
      const next = await openSessionId(t, p.id);
      expect(next).not.toBeNull();
      expect(next).not.toBe(first.id);
    } finally {
      await t.close();
    }
  });
});
