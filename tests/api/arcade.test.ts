import { accessFor } from '../helpers/accounts';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Currency } from '../../server/db/tables/core';
import { ledgerSum, type LedgerReason, post } from '../../server/services/ledger';
import { createUser } from '../../server/services/users';
import { SEASON_TIERS } from '@shared/season';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const DAY = 24 * 60 * 60 * 1000;

interface Player {
  id: number;
  token: string;
}

describe.each(testDialects())('arcade season on %s', (dialect) => {
  let t: TestApp;
  let season: { id: number; starts_at: number; ends_at: number };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const row = await t.app.db.selectFrom('seasons').selectAll().executeTakeFirstOrThrow();
    season = { id: Number(row.id), starts_at: Number(row.starts_at), ends_at: Number(row.ends_at) };
  });
  afterAll(() => t.close());

  async function player(): Promise<Player> {
    const user = await t.app.db
      .transaction()
      .execute((trx) => createUser(trx, { username: `p_${randomBytes(5).toString('hex')}` }));
    return { id: Number(user.id), token: await accessFor(t, Number(user.id)) };
  }

  async function earn(p: Player, reason: LedgerReason, amount: number, currency: Currency = 'balance', at?: number) {
    await t.app.db.transaction().execute((trx) => post(trx, { userId: p.id, currency, amount, reason }, at));
  }

  /** XP through quest coins (1 XP per coin). */
  const giveXp = (p: Player, xp: number) => earn(p, 'quest_social', xp);

  const getSeason = (p: Player | null) =>
    t.app.inject({
      method: 'GET',
      url: '/api/v1/arcade/season/',
      headers: p ? { authorization: `Bearer ${p.token}` } : {},
    });

  const claim = (p: Player, body: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/arcade/claim/',
      headers: { authorization: `Bearer ${p.token}`, ...headers },
      payload: body as object,
    });

  async function seasonBoosts(p: Player) {
    return t.app.db
      .selectFrom('temp_boosts')
      .selectAll()
      .where('user_id', '=', p.id)
      .where('source', '=', 'season')
      .execute();
  }

  async function money(p: Player) {
    const u = await t.app.db
      .selectFrom('users')
      .select(['balance', 'gems'])
      .where('id', '=', p.id)
      .executeTakeFirstOrThrow();
    // The cached columns must always equal the ledger.
    expect(await ledgerSum(t.app.db, p.id, 'balance')).toBe(Number(u.balance));
    expect(await ledgerSum(t.app.db, p.id, 'gems')).toBe(Number(u.gems));
    return { coins: Number(u.balance), gems: Number(u.gems) };
  }

  it('needs a signed-in player', async () => {
    expect((await getSeason(null)).statusCode).toBe(401);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/arcade/claim/', payload: { tier: 1 } });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('token_not_valid');
  });

  it('opens a 30-day "Season 1" on first start and shows 30 tiers with their rewards', async () => {
    expect(season.ends_at - season.starts_at).toBe(30 * DAY);
    expect(Math.abs(season.starts_at - Date.now())).toBeLessThan(DAY);
    const p = await player();
    const res = await getSeason(p);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      id: season.id,
      title: 'Season 1',
      starts_at: new Date(season.starts_at).toISOString(),
      ends_at: new Date(season.ends_at).toISOString(),
      xp: 0,
      tier: 0,
      xp_per_tier: 100,
    });
    expect(body.tiers).toHaveLength(SEASON_TIERS);
    expect(body.tiers[0]).toEqual({
      tier: 1,
      xp_required: 100,
      reward: { kind: 'coins', amount: 10 },
      claimed: false,
      claimable: false,
    });
    expect(body.tiers[4].reward).toEqual({ kind: 'boost', hours: 4 });
    expect(body.tiers[5].reward).toEqual({ kind: 'coins', amount: 20 });
    expect(body.tiers[28].reward).toEqual({ kind: 'coins', amount: 60 });
    expect(body.tiers[29]).toEqual({
      tier: 30,
      xp_required: 3000,
      reward: { kind: 'gems', amount: 50 },
      claimed: false,
      claimable: false,
    });
    const boostTiers = body.tiers
      .filter((x: { reward: { kind: string } }) => x.reward.kind === 'boost')
      .map((x: { tier: number }) => x.tier);
    expect(boostTiers).toEqual([5, 10, 15, 20, 25]);
  });

  it('counts 10 XP per claimed session and 1 per quest coin, only inside the season', async () => {
    const p = await player();
    for (let i = 0; i < 3; i++) await earn(p, 'mining_claim', 8_000_000, 'token');
    await earn(p, 'quest_account', 5);
    await earn(p, 'quest_social', 15);
    await earn(p, 'category_reward', 100);
    await earn(p, 'referral_award', 4);
    // Not XP: other reasons, and rows outside the season's dates.
    await earn(p, 'admin_grant', 1000);
    await earn(p, 'top_up', 50, 'gems');
    await earn(p, 'season_tier', 10);
    await earn(p, 'mining_claim', 8_000_000, 'token', season.starts_at - 1);
    await earn(p, 'quest_account', 10, 'balance', season.starts_at - DAY);
    await earn(p, 'quest_social', 15, 'balance', season.ends_at);

    const body = (await getSeason(p)).json();
    expect(body.xp).toBe(3 * 10 + 5 + 15 + 100 + 4);
    expect(body.tier).toBe(1);
    expect(body.tiers[0].claimable).toBe(true);
    expect(body.tiers[1].claimable).toBe(false);
  });

  it('pays a reached tier once and refuses unreached tiers', async () => {
    const p = await player();
    await giveXp(p, 150);
    const before = await money(p);

    const notYet = await claim(p, { tier: 2 });
    expect(notYet.statusCode).toBe(400);
    expect(notYet.json().code).toBe('tier_not_reached');

    const ok = await claim(p, { tier: 1 });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ tier: 1, reward: { kind: 'coins', amount: 10 } });
    expect(ok.json().season.tiers[0]).toMatchObject({ claimed: true, claimable: false });
    expect((await money(p)).coins).toBe(before.coins + 10);

    const again = await claim(p, { tier: 1 });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('tier_already_claimed');
    expect((await money(p)).coins).toBe(before.coins + 10);

    const rows = await t.app.db
      .selectFrom('ledger')
      .selectAll()
      .where('user_id', '=', p.id)
      .where('reason', '=', 'season_tier')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      currency: 'balance',
      amount: 10,
      unique_key: `season_tier:${p.id}:${season.id}:1`,
    });
    // The season's own coins give no XP.
    expect((await getSeason(p)).json().xp).toBe(150);
  });

  it('pays every tier of a full season: 840 coins, five 4-hour boosts, 50 Gems', async () => {
    const p = await player();
    await giveXp(p, 3000);
    const before = await money(p);
    for (let tier = SEASON_TIERS; tier >= 1; tier--) {
      const res = await claim(p, { tier });
      expect(res.statusCode, `tier ${tier}`).toBe(200);
    }
    const after = await money(p);
    expect(after.coins - before.coins).toBe(840);
    expect(after.gems - before.gems).toBe(50);
    const boosts = await seasonBoosts(p);
    expect(boosts).toHaveLength(5);
    expect(
      boosts.every((b) => Number(b.duration_seconds) === 4 * 3600 && Number(b.value) === 2 && b.state === 'owned'),
    ).toBe(true);
    const body = (await getSeason(p)).json();
    expect(body.tier).toBe(30);
    expect(body.tiers.every((x: { claimed: boolean; claimable: boolean }) => x.claimed && !x.claimable)).toBe(true);
  });

  it('pays once when the same tier is claimed in parallel', async () => {
    const p = await player();
    await giveXp(p, 500);
    const before = await money(p);
    const coins = await Promise.all(Array.from({ length: 8 }, () => claim(p, { tier: 4 })));
    expect(coins.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(coins.filter((r) => r.statusCode === 400).every((r) => r.json().code === 'tier_already_claimed')).toBe(true);
    expect(coins.filter((r) => r.statusCode === 400)).toHaveLength(7);
    expect((await money(p)).coins).toBe(before.coins + 10);

    const boosts = await Promise.all(Array.from({ length: 8 }, () => claim(p, { tier: 5 })));
    expect(boosts.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(await seasonBoosts(p)).toHaveLength(1);
  });

  it('replays a claim sent again with the same Idempotency-Key', async () => {
    const p = await player();
    await giveXp(p, 200);
    const before = await money(p);
    const first = await claim(p, { tier: 2 }, { 'idempotency-key': 'claim-tier-2' });
    const second = await claim(p, { tier: 2 }, { 'idempotency-key': 'claim-tier-2' });
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    expect((await money(p)).coins).toBe(before.coins + 10);
  });

  it('refuses bad tiers as invalid input', async () => {
    const p = await player();
    for (const body of [{ tier: 0 }, { tier: 31 }, { tier: 1.5 }, { tier: '1' }, {}]) {
      const res = await claim(p, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('invalid');
    }
  });

  it('answers 404 no_active_season when no season is running', async () => {
    const p = await player();
    await giveXp(p, 100);
    await t.app.db
      .updateTable('seasons')
      .set({ ends_at: Date.now() - 1 })
      .where('id', '=', season.id)
      .execute();
    try {
      const res = await getSeason(p);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('no_active_season');
      const c = await claim(p, { tier: 1 });
      expect(c.statusCode).toBe(404);
      expect(c.json().code).toBe('no_active_season');
    } finally {
      await t.app.db.updateTable('seasons').set({ ends_at: season.ends_at }).where('id', '=', season.id).execute();
    }
  });
});
