import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from '../../server/services/ledger';
import { hasUnclaimedSession } from '../../server/services/mining-status';
import { claimFirstSession, endSession } from '../helpers/mining';
import { apiCall, balance, createPlayer, grant, ledgerRowsOf, type TestPlayer } from '../helpers/players';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const SESSION_SECONDS = 7200; // 2 h: base reward 2 PXT; a 1 h boost makes it 3 PXT
const H = 3_600_000;

describe.each(testDialects())('mining sessions and boosts on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { MINING_SESSION_SECONDS: String(SESSION_SECONDS) });
  });
  afterAll(() => t.close());

  const get = (p: TestPlayer, url: string, headers?: Record<string, string>) =>
    apiCall(t, p, 'GET', url, undefined, headers);
  const postJson = (p: TestPlayer, url: string, body: unknown) => apiCall(t, p, 'POST', url, body);
  const welcomeBoostId = async (p: TestPlayer) => {
    const res = await get(p, '/mining/boosts/');
    return res.json().boosts.find((b: { boost_type: string }) => b.boost_type === 'temporary').id as number;
  };

  it('gives every new account one 1-hour temporary boost', async () => {
    const p = await createPlayer(t);
    const res = await get(p, '/mining/boosts/');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      boosts: [
        {
          id: expect.any(Number),
          boost_type: 'temporary',
          is_active: false,
          value: 2,
          is_selected: false,
          duration_seconds: 3600,
        },
      ],
      task_total_boost: 0,
      task_count: 0,
      referral_total_boost: 0,
      referral_count: 0,
      referral_waiting: 0,
      temporary_count: 1,
    });
  });

  it('starts a session, refuses a second start and an early claim, then pays the claim once', async () => {
    const p = await createPlayer(t);
    expect((await get(p, '/mining/claim/')).json()).toMatchObject({ code: 'nothing_to_claim' });
    expect(await hasUnclaimedSession(t.app.db, p.id)).toBe(false);

    const start = await get(p, '/mining/start/');
    expect(start.statusCode).toBe(200);
    const { session, applied_temporary_boosts } = start.json();
    expect(applied_temporary_boosts).toEqual([]);
    expect(session).toEqual({
      id: expect.any(Number),
      started_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      ends_at: expect.any(String),
      claimed: false,
      claimed_at: null,
      rate_per_hour: 1,
      boost_percent: 0,
      reward: 2,
      temporary_boosts: [],
    });
    expect(Date.parse(session.ends_at) - Date.parse(session.started_at)).toBe(SESSION_SECONDS * 1000);
    expect(await hasUnclaimedSession(t.app.db, p.id)).toBe(true);

    const again = await get(p, '/mining/start/');
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('session_exists');

    const early = await get(p, '/mining/claim/');
    expect(early.statusCode).toBe(400);
    expect(early.json()).toEqual({ detail: 'Mining session is not finished yet', code: 'session_not_finished' });

    await endSession(t, session.id);
    const claim = await get(p, '/mining/claim/');
    expect(claim.statusCode).toBe(200);
    expect(claim.json()).toMatchObject({ id: session.id, claimed: true, reward: 2, claimed_at: expect.any(String) });
    expect(await balance(t, p.id, 'token')).toBe(2_000_000);
    const rows = await ledgerRowsOf(t, p.id, 'mining_claim');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ currency: 'token', amount: 2_000_000, unique_key: `mining_claim:${session.id}` });

    const second = await get(p, '/mining/claim/');
    expect(second.statusCode).toBe(400);
    expect(second.json().code).toBe('nothing_to_claim');
    expect(await hasUnclaimedSession(t.app.db, p.id)).toBe(false);
    expect((await get(p, '/mining/start/')).statusCode).toBe(200);
  });

  it('pays once under 20 parallel claims', async () => {
    const p = await createPlayer(t);
    const { session } = (await get(p, '/mining/start/')).json();
    await endSession(t, session.id);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => get(p, '/mining/claim/', i % 2 ? { 'idempotency-key': `k-${i}` } : {})),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 400)).toHaveLength(19);
    expect(await ledgerRowsOf(t, p.id, 'mining_claim')).toHaveLength(1);
    expect(await balance(t, p.id, 'token')).toBe(2_000_000);
  });

  it('answers a replayed claim with the first answer and pays nothing more', async () => {
    const p = await createPlayer(t);
    const { session } = (await get(p, '/mining/start/')).json();
    await endSession(t, session.id);
    const key = { 'idempotency-key': 'claim-once-please' };
    const first = await get(p, '/mining/claim/', key);
    expect(first.statusCode).toBe(200);
    const replay = await get(p, '/mining/claim/', key);
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    // Replays arriving together: the first answer or "in progress", never a second payment.
    const burst = await Promise.all(Array.from({ length: 5 }, () => get(p, '/mining/claim/', key)));
    for (const b of burst) expect([200, 409]).toContain(b.statusCode);
    expect(await ledgerRowsOf(t, p.id, 'mining_claim')).toHaveLength(1);
    expect(await balance(t, p.id, 'token')).toBe(2_000_000);
  });

  it('applies a boost selected before the start at the start, and pays for it', async () => {
    const p = await createPlayer(t);
    const boostId = await welcomeBoostId(p);
    const sel = await postJson(p, '/mining/select-temp-boost/', { boost_id: boostId });
    expect(sel.statusCode).toBe(200);
    expect(sel.json().boost).toMatchObject({ id: boostId, is_selected: true, is_active: false });
    expect((await postJson(p, '/mining/select-temp-boost/', { boost_id: boostId })).statusCode).toBe(200);

    const start = (await get(p, '/mining/start/')).json();
    expect(start.applied_temporary_boosts).toEqual([
      {
        boost_id: boostId,
        starts_at: start.session.started_at,
        ends_at: new Date(Date.parse(start.session.started_at) + H).toISOString(),
        value: 2,
      },
    ]);
    expect(start.session.temporary_boosts).toEqual(start.applied_temporary_boosts);
    expect(start.session.reward).toBe(3);
    const boosts = (await get(p, '/mining/boosts/')).json();
    expect(boosts.boosts).toEqual([expect.objectContaining({ id: boostId, is_active: true, is_selected: false })]);
    expect(boosts.temporary_count).toBe(0);

    await endSession(t, start.session.id);
    const claim = (await get(p, '/mining/claim/')).json();
    expect(claim.reward).toBe(3);
    expect(await balance(t, p.id, 'token')).toBe(3_000_000);
    expect((await get(p, '/mining/boosts/')).json().boosts).toEqual([]);
    expect((await get(p, `/assets/detail/${boostId}/`)).json()).toMatchObject({
      state: 'expired',
      session_id: start.session.id,
    });
    // Used up: it cannot be selected or applied again.
    expect((await postJson(p, '/mining/select-temp-boost/', { boost_id: boostId })).json().code).toBe(
      'boost_already_used',
    );
  });

  it('asks before applying a boost that would run past the end, and applies it with force_apply', async () => {
    const p = await createPlayer(t);
    await grant(t, p.id, 'gems', 15);
    const bought = (await postJson(p, '/mining/shop/buy/', { item_id: 'boost_4h' })).json().boost;
    expect(bought).toMatchObject({ duration_seconds: 4 * 3600, value: 2 });

    const noSession = await postJson(p, '/mining/apply-temp-boost/', { boost_id: bought.id, force_apply: false });
    expect(noSession.statusCode).toBe(400);
    expect(noSession.json().code).toBe('no_running_session');

    const { session } = (await get(p, '/mining/start/')).json();
    const ask = await postJson(p, '/mining/apply-temp-boost/', { boost_id: bought.id, force_apply: false });
    expect(ask.statusCode).toBe(200);
    expect(ask.json()).toEqual({
      code: 'boost_longer_than_session',
      message: expect.stringContaining('Unused boost time expires'),
      efficiency_percent: 50,
      applied: false,
    });
    expect((await get(p, '/mining/sessions/')).json().results[0].temporary_boosts).toEqual([]);
    expect((await get(p, `/assets/detail/${bought.id}/`)).json().state).toBe('owned');

    const forced = await postJson(p, '/mining/apply-temp-boost/', { boost_id: bought.id, force_apply: true });
    expect(forced.statusCode).toBe(200);
    const body = forced.json();
    expect(body).toMatchObject({
      code: 'boost_applied',
      applied: true,
      efficiency_percent: 50,
      boost: { boost_id: bought.id, ends_at: session.ends_at, value: 2 },
    });
    expect(body.session.temporary_boosts).toEqual([body.boost]);

    // The session is boosted to its end: another boost would get no time at all.
    const welcome = await welcomeBoostId(p);
    const full = await postJson(p, '/mining/apply-temp-boost/', { boost_id: welcome, force_apply: true });
    expect(full.statusCode).toBe(400);
    expect(full.json().code).toBe('no_time_left');
    // Applied already: not again.
    expect(
      (await postJson(p, '/mining/apply-temp-boost/', { boost_id: bought.id, force_apply: true })).json().code,
    ).toBe('boost_already_used');
  });

  it('chains boosts applied during a session one after another', async () => {
    const p = await createPlayer(t);
    await grant(t, p.id, 'gems', 5);
    const welcome = await welcomeBoostId(p);
    const second = (await postJson(p, '/mining/shop/buy/', { item_id: 'boost_1h' })).json().boost.id;
    const { session } = (await get(p, '/mining/start/')).json();
    // Started 10 minutes ago: 1 h 50 min left.
    await t.app.db
      .updateTable('mining_sessions')
      .set({ started_at: sql`started_at - ${10 * 60_000}`, ends_at: sql`ends_at - ${10 * 60_000}` })
      .where('id', '=', session.id)
      .execute();

    const first = await postJson(p, '/mining/apply-temp-boost/', { boost_id: welcome, force_apply: false });
    expect(first.json()).toMatchObject({ applied: true, efficiency_percent: 100 });
    const firstBoost = first.json().boost;
    expect(Date.parse(firstBoost.ends_at) - Date.parse(firstBoost.starts_at)).toBe(H);

    // The second starts where the first ends, so 10 of its 60 minutes fall past the end.
    const ask = await postJson(p, '/mining/apply-temp-boost/', { boost_id: second, force_apply: false });
    expect(ask.json()).toMatchObject({ applied: false, efficiency_percent: 83 });
    const chained = (await postJson(p, '/mining/apply-temp-boost/', { boost_id: second, force_apply: true })).json();
    expect(chained.boost.starts_at).toBe(firstBoost.ends_at);
    expect(chained.session.temporary_boosts.map((b: { boost_id: number }) => b.boost_id)).toEqual([welcome, second]);
  });

  it("refuses boosts that are not the player's", async () => {
    const owner = await createPlayer(t);
    const other = await createPlayer(t);
    const boostId = await welcomeBoostId(owner);
    await get(other, '/mining/start/');
    expect((await postJson(other, '/mining/select-temp-boost/', { boost_id: boostId })).statusCode).toBe(404);
    expect(
      (await postJson(other, '/mining/apply-temp-boost/', { boost_id: boostId, force_apply: true })).statusCode,
    ).toBe(404);
    expect((await postJson(other, '/mining/select-temp-boost/', { boost_id: 987654321 })).statusCode).toBe(404);
    expect((await get(owner, `/assets/detail/${boostId}/`)).statusCode).toBe(200);
    expect((await get(other, `/assets/detail/${boostId}/`)).statusCode).toBe(404);
  });

  it('lists sessions newest first, page by page', async () => {
    const p = await createPlayer(t);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const { session } = (await get(p, '/mining/start/')).json();
      ids.push(session.id);
      await endSession(t, session.id, (3 - i) * 10_000);
      expect((await get(p, '/mining/claim/')).statusCode).toBe(200);
    }
    ids.push((await get(p, '/mining/start/')).json().session.id);

    const page1 = (await get(p, '/mining/sessions/?page_size=3')).json();
    expect(page1.count).toBe(4);
    expect(page1.results.map((s: { id: number }) => s.id)).toEqual([ids[3], ids[2], ids[1]]);
    expect(page1.results.map((s: { claimed: boolean }) => s.claimed)).toEqual([false, true, true]);
    expect(page1.next).toBe('/api/v1/mining/sessions/?page=2&page_size=3');
    expect(page1.previous).toBeNull();
    const page2 = (await get(p, '/mining/sessions/?page=2&page_size=3')).json();
    expect(page2.results.map((s: { id: number }) => s.id)).toEqual([ids[0]]);
    expect(page2.next).toBeNull();
    expect(page2.previous).toBe('/api/v1/mining/sessions/?page=1&page_size=3');
    expect((await get(p, '/mining/sessions/?page=9')).json()).toMatchObject({ count: 4, results: [], next: null });
    const all = (await get(p, '/mining/sessions/')).json();
    expect(all.results).toHaveLength(4);
    // Another player's sessions are not listed.
    expect((await get(await createPlayer(t), '/mining/sessions/')).json()).toEqual({
      count: 0,
      next: null,
      previous: null,
      results: [],
    });
  });

  it('grants a task boost once per completed task and counts it from the next session', async () => {
    const p = await createPlayer(t);
    const title = 'Добавить никнейм';
    const unknown = await postJson(p, '/mining/reward-task-boost/', { task_title: 'Not a task' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0].field).toBe('task_title');
    const early = await postJson(p, '/mining/reward-task-boost/', { task_title: title });
    expect(early.statusCode).toBe(400);
    expect(early.json().code).toBe('task_not_completed');

    const { session: before } = (await get(p, '/mining/start/')).json();
    await t.app.db
      .transaction()
      .execute((trx) =>
        post(trx, { userId: p.id, currency: 'balance', amount: 5, reason: 'quest_account', ref: title }),
      );
    const answers = await Promise.all(
      [0, 1, 2].map(() => postJson(p, '/mining/reward-task-boost/', { task_title: title })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400, 400]);
    const ok = answers.find((a) => a.statusCode === 200)!.json();
    expect(ok).toMatchObject({
      task_total_boost: 5,
      task_count: 1,
      boost: { boost_type: 'task', value: 5, is_active: true, duration_seconds: null },
    });
    expect(answers.find((a) => a.statusCode === 400)!.json().code).toBe('boost_already_received');

    // The running session keeps the rate it started with; the next one gets +5 %.
    expect((await get(p, '/mining/sessions/')).json().results[0].boost_percent).toBe(0);
    await endSession(t, before.id);
    expect((await get(p, '/mining/claim/')).json().reward).toBe(2);
    const { session } = (await get(p, '/mining/start/')).json();
    expect(session).toMatchObject({ boost_percent: 5, rate_per_hour: 1.05, reward: 2.1 });
    const boosts = (await get(p, '/mining/boosts/')).json();
    expect(boosts).toMatchObject({ task_total_boost: 5, task_count: 1 });
  });

  it('grants one boost per active friend, capped at 100 %', async () => {
    const p = await createPlayer(t);
    const none = await get(p, '/mining/reward-referral-boost/');
    expect(none.statusCode).toBe(400);
    expect(none.json().code).toBe('no_new_referrals');

    // Friends count once they have claimed a mining session (decisions §12).
    const friend = async () => claimFirstSession(t, await createPlayer(t, { referrerId: p.id }));
    await createPlayer(t, { referrerId: p.id }); // never mines: never counts
    for (let i = 0; i < 2; i++) await friend();
    const two = await Promise.all([0, 1, 2].map(() => get(p, '/mining/reward-referral-boost/')));
    expect(two.map((a) => a.statusCode).sort()).toEqual([200, 400, 400]);
    expect(two.find((a) => a.statusCode === 200)!.json()).toMatchObject({
      added: 2,
      referral_total_boost: 20,
      referral_count: 2,
    });

    for (let i = 0; i < 10; i++) await friend();
    const twelve = (await get(p, '/mining/reward-referral-boost/')).json();
    expect(twelve).toMatchObject({ added: 10, referral_total_boost: 100, referral_count: 12 });
    const { session } = (await get(p, '/mining/start/')).json();
    expect(session).toMatchObject({ boost_percent: 100, rate_per_hour: 2, reward: 4 });
  });
});
