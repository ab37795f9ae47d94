import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleReferralAwards } from '../../server/services/quests';
import {
  accountReady,
  addReferrals,
  call,
  expectBalanceMatchesLedger,
  ledgerRows,
  makePlayer,
  type Player,
} from '../helpers/quest-fixtures';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('completed tasks and category rewards on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const doAccountQuests = async (p: Player) => {
    for (const path of ['/check-username/', '/check-wallet/', '/check-email-password/'])
      expect((await call(t, p, 'GET', path)).statusCode).toBe(200);
  };
  const follow = async (p: Player, network: string) =>
    expect((await call(t, p, 'POST', '/tasks/social-media-reward/', { network })).statusCode).toBe(200);

  it('starts empty', async () => {
    const p = await makePlayer(t);
    const res = await call(t, p, 'GET', '/tasks/completed/');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      completed_tasks: [],
      category_completion_counts: { user_account_quests: 0, social_quests: 0 },
      total_completed: 0,
      finished_user_account_quest: false,
      finished_social_quest: false,
    });
  });

  it('lists the paid tasks with their Russian server titles, counts per category', async () => {
    const p = await makePlayer(t, accountReady());
    const before = Date.now();
    await call(t, p, 'GET', '/check-wallet/');
    await follow(p, 'telegram_eng');
    const res = await call(t, p, 'GET', '/tasks/completed/');
    const body = res.json();
    expect(body.completed_tasks.map((x: { task_title: string; reward: number }) => [x.task_title, x.reward])).toEqual([
      ['Подключить кошелёк', 10],
      ['Подписаться на международный Telegram-канал', 15],
    ]);
    expect(body.category_completion_counts).toEqual({ user_account_quests: 1, social_quests: 1 });
    expect(body.total_completed).toBe(2);
    const at = Date.parse(body.completed_tasks[0].completed_at);
    expect(body.completed_tasks[0].completed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(at).toBeGreaterThanOrEqual(before - 1000);

    const one = await call(t, p, 'GET', `/tasks/completed/${body.completed_tasks[1].id}/`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(body.completed_tasks[1]);
  });

  it("answers 404 for another player's task, an unknown id and a non-task ledger row", async () => {
    const owner = await makePlayer(t, accountReady());
    await call(t, owner, 'GET', '/check-username/');
    const taskId = (await call(t, owner, 'GET', '/tasks/completed/')).json().completed_tasks[0].id;
    const other = await makePlayer(t);
    expect((await call(t, other, 'GET', `/tasks/completed/${taskId}/`)).statusCode).toBe(404);
    expect((await call(t, owner, 'GET', '/tasks/completed/999999999/')).json()).toEqual({
      detail: 'Task not found.',
      code: 'not_found',
    });

    await call(t, owner, 'GET', '/check-wallet/');
    await call(t, owner, 'GET', '/check-email-password/');
    await call(t, owner, 'GET', '/tasks/reward-user-account/');
    const [category] = await ledgerRows(t, owner.id, 'category_reward');
    expect((await call(t, owner, 'GET', `/tasks/completed/${category!.id}/`)).statusCode).toBe(404);
    expect((await call(t, owner, 'GET', '/tasks/completed/abc/')).statusCode).toBe(400);
  });

  it('refuses the account category reward until all 3 account quests are done, then pays 100 once', async () => {
    const p = await makePlayer(t, accountReady());
    await call(t, p, 'GET', '/check-username/');
    await call(t, p, 'GET', '/check-wallet/');
    const early = await call(t, p, 'GET', '/tasks/reward-user-account/');
    expect(early.statusCode).toBe(400);
    expect(early.json()).toEqual({
      detail: 'Не все задания категории «Задания аккаунта» выполнены',
      code: 'category_incomplete',
      category: 'user_account_quests',
    });

    await call(t, p, 'GET', '/check-email-password/');
    const ok = await call(t, p, 'GET', '/tasks/reward-user-account/');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({
      detail: 'Начислено 100 монет за выполнение всех заданий категории «Задания аккаунта»',
      code: 'category_reward_granted',
      category: 'user_account_quests',
      reward: 100,
    });
    const again = await call(t, p, 'GET', '/tasks/reward-user-account/');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      detail: 'Награда за эту категорию уже получена',
      code: 'category_already_claimed',
      category: 'user_account_quests',
    });

    const list = (await call(t, p, 'GET', '/tasks/completed/')).json();
    expect(list.finished_user_account_quest).toBe(true);
    expect(list.finished_social_quest).toBe(false);
    expect(list.total_completed).toBe(3); // the category reward is not a task
    expect(await expectBalanceMatchesLedger(t, p.id)).toBe(125);
  });

  it('needs 6 social quests for the social reward (follows and invite awards count)', async () => {
    const p = await makePlayer(t);
    for (const n of ['telegram_ru', 'telegram_eng', 'discord']) await follow(p, n);
    const early = await call(t, p, 'GET', '/tasks/reward-social/');
    expect(early.statusCode).toBe(400);
    expect(early.json()).toMatchObject({
      detail: 'Не все задания категории «Социальные задания» выполнены',
      code: 'category_incomplete',
      category: 'social_quests',
    });

    // Three invite awards (2, 4, 6 friends), paid as add-reward pays them.
    await addReferrals(t, p.id, 6);
    expect(await t.app.db.transaction().execute((trx) => settleReferralAwards(trx, p.id))).toHaveLength(3);
    expect((await call(t, p, 'GET', '/tasks/completed/')).json().category_completion_counts).toEqual({
      user_account_quests: 0,
      social_quests: 6,
    });

    const ok = await call(t, p, 'GET', '/tasks/reward-social/');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      detail: 'Начислено 100 монет за выполнение всех заданий категории «Социальные задания»',
      reward: 100,
      category: 'social_quests',
    });
    expect((await call(t, p, 'GET', '/tasks/reward-social/')).json().code).toBe('category_already_claimed');
    expect((await call(t, p, 'GET', '/tasks/completed/')).json().finished_social_quest).toBe(true);
    expect(await expectBalanceMatchesLedger(t, p.id)).toBe(45 + 24 + 100);
  });

  it('pays a category reward once under 10 parallel requests', async () => {
    const p = await makePlayer(t, accountReady());
    await doAccountQuests(p);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => call(t, p, 'GET', '/tasks/reward-user-account/')),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 400).every((r) => r.json().code === 'category_already_claimed')).toBe(
      true,
    );
    expect(await ledgerRows(t, p.id, 'category_reward')).toHaveLength(1);
    expect(await expectBalanceMatchesLedger(t, p.id)).toBe(125);
  });
});
