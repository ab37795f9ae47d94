import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addReferrals, call, expectBalanceMatchesLedger, ledgerRows, makePlayer } from '../helpers/quest-fixtures';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const NONE = { detail: 'Нет новых наград', code: 'no_new_rewards', reward: 0, awards: [] };

describe.each(testDialects())('referral awards on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('needs a signed-in player', async () => {
    expect((await call(t, null, 'GET', '/referrals/add-reward/')).statusCode).toBe(401);
  });

  it('answers 200 with no new rewards before the first award is reached', async () => {
    const p = await makePlayer(t);
    const none = await call(t, p, 'GET', '/referrals/add-reward/');
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual(NONE);
    await addReferrals(t, p.id, 1);
    expect((await call(t, p, 'GET', '/referrals/add-reward/')).json()).toEqual(NONE);
    expect(await ledgerRows(t, p.id, 'referral_award')).toHaveLength(0);
  });

  it('pays every reached award once: 5 referrals pay 2 and 4, reaching 6 pays 12 more', async () => {
    const p = await makePlayer(t);
    await addReferrals(t, p.id, 5);
    const first = await call(t, p, 'GET', '/referrals/add-reward/');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      detail: 'Награды за приглашения начислены',
      code: 'referral_rewards_granted',
      reward: 12,
      awards: [2, 4],
    });
    expect((await call(t, p, 'GET', '/referrals/add-reward/')).json()).toEqual(NONE);

    await addReferrals(t, p.id, 1);
    expect((await call(t, p, 'GET', '/referrals/add-reward/')).json()).toMatchObject({ reward: 12, awards: [6] });

    const rows = await ledgerRows(t, p.id, 'referral_award');
    expect(rows.map((r) => [r.ref, Number(r.amount)])).toEqual([
      ['Пригласить 2 пользователя', 4],
      ['Пригласить 4 пользователя', 8],
      ['Пригласить 6 пользователей', 12],
    ]);
    expect(await expectBalanceMatchesLedger(t, p.id)).toBe(24);

    // Paid awards are completed invite quests (social category) under their server titles.
    const done = (await call(t, p, 'GET', '/tasks/completed/')).json();
    expect(done.completed_tasks.map((x: { task_title: string }) => x.task_title)).toEqual([
      'Пригласить 2 пользователя',
      'Пригласить 4 пользователя',
      'Пригласить 6 пользователей',
    ]);
    expect(done.category_completion_counts.social_quests).toBe(3);
  });

  it("counts only the player's own referrals", async () => {
    const p = await makePlayer(t);
    const other = await makePlayer(t);
    await addReferrals(t, other.id, 4);
    await addReferrals(t, p.id, 3);
    expect((await call(t, p, 'GET', '/referrals/add-reward/')).json()).toMatchObject({ reward: 4, awards: [2] });
  });

  it('pays each award once under 10 parallel requests', async () => {
    const p = await makePlayer(t);
    await addReferrals(t, p.id, 10);
    const results = await Promise.all(Array.from({ length: 10 }, () => call(t, p, 'GET', '/referrals/add-reward/')));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect(results.reduce((sum, r) => sum + r.json().reward, 0)).toBe(4 + 8 + 12 + 20);
    expect(results.flatMap((r) => r.json().awards).sort((a, b) => a - b)).toEqual([2, 4, 6, 10]);
    expect(await ledgerRows(t, p.id, 'referral_award')).toHaveLength(4);
    expect(await expectBalanceMatchesLedger(t, p.id)).toBe(44);
  });
});
