import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BETA_REQUIRED_KEYS } from '@shared/tasks';
import {
  accountReady,
  addReferrals,
  call,
  completeBetaTasks,
  expectBalanceMatchesLedger,
  ledgerRows,
  makePlayer,
  randomWallet,
} from '../helpers/quest-fixtures';
import { claimFirstSession } from '../helpers/mining';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const valid = () => ({
  telegram: '@pxt_player',
  discord: 'pxt.player_1',
  email: 'player@example.com',
  wallet: randomWallet(),
});

describe.each(testDialects())('beta application on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('needs a signed-in player', async () => {
    expect((await call(t, null, 'POST', '/apply-for-beta/', valid())).statusCode).toBe(401);
    expect((await call(t, null, 'GET', '/beta/status/')).statusCode).toBe(401);
  });

  it('reports the progress of a new player', async () => {
    const p = await makePlayer(t);
    const res = await call(t, p, 'GET', '/beta/status/');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      is_eligible: false,
      has_access: false,
      completed_tasks: 0,
      total_required_tasks: 9,
      missing_tasks: [...BETA_REQUIRED_KEYS],
      applied: false,
    });
  });

  it('refuses an application until all 9 tasks are done, naming the missing ones', async () => {
    const p = await makePlayer(t, accountReady());
    for (const path of ['/check-username/', '/check-wallet/', '/check-email-password/']) await call(t, p, 'GET', path);
    await call(t, p, 'POST', '/tasks/social-media-reward/', { network: 'discord' });
    await addReferrals(t, p.id, 4);

    const res = await call(t, p, 'POST', '/apply-for-beta/', valid());
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      detail: 'Не все обязательные задания выполнены для подачи заявки',
      code: 'beta_tasks_incomplete',
      missing: ['telegram_ru', 'telegram_eng', 'invite_6'],
    });
    const status = (await call(t, p, 'GET', '/beta/status/')).json();
    expect(status).toMatchObject({
      is_eligible: false,
      completed_tasks: 6,
      missing_tasks: ['telegram_ru', 'telegram_eng', 'invite_6'],
    });
    expect(
      await t.app.db.selectFrom('beta_applications').selectAll().where('user_id', '=', p.id).execute(),
    ).toHaveLength(0);
  });

  it('refuses an application while the invited friends have not claimed a mining session (decisions §12)', async () => {
    const p = await makePlayer(t, accountReady());
    for (const path of ['/check-username/', '/check-wallet/', '/check-email-password/']) await call(t, p, 'GET', path);
    for (const network of ['telegram_ru', 'telegram_eng', 'discord'])
      await call(t, p, 'POST', '/tasks/social-media-reward/', { network });
    const friends = await addReferrals(t, p.id, 6, { active: false });

    const res = await call(t, p, 'POST', '/apply-for-beta/', valid());
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'beta_tasks_incomplete', missing: ['invite_2', 'invite_4', 'invite_6'] });
    expect((await call(t, p, 'GET', '/beta/status/')).json()).toMatchObject({ is_eligible: false, completed_tasks: 6 });
    expect(await ledgerRows(t, p.id, 'referral_award')).toHaveLength(0);

    // Five of six play: invite_6 is still missing.
    for (const f of friends.slice(0, 5)) await claimFirstSession(t, f);
    expect((await call(t, p, 'POST', '/apply-for-beta/', valid())).json()).toMatchObject({
      code: 'beta_tasks_incomplete',
      missing: ['invite_6'],
    });
    await claimFirstSession(t, friends[5]);
    expect((await call(t, p, 'POST', '/apply-for-beta/', valid())).statusCode).toBe(201);
  });

  it('validates the contacts with Russian field messages', async () => {
    const p = await makePlayer(t, accountReady());
    await completeBetaTasks(t, p);
    const res = await call(t, p, 'POST', '/apply-for-beta/', {
      telegram: '@abc',
      discord: 'Bad Name!',
      email: 'not-mail',
      wallet: '0x123',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      detail: 'Неверный формат имени пользователя Telegram',
      code: 'invalid_telegram_format',
      errors: [
        { field: 'telegram', message: 'Неверный формат имени пользователя Telegram' },
        { field: 'discord', message: 'Неверный формат имени пользователя Discord' },
        { field: 'email', message: 'Неверный формат почты' },
        { field: 'wallet', message: 'Неверный формат адреса кошелька' },
      ],
    });

    const cases: [Record<string, string>, string | null][] = [
      [{ telegram: 'a'.repeat(33) }, 'telegram'],
      [{ telegram: 'pxt-player' }, 'telegram'],
      [{ telegram: 'pxt_player' }, null],
      [{ discord: 'a' }, 'discord'],
      [{ discord: 'a'.repeat(33) }, 'discord'],
      [{ discord: 'Old Timer#1234' }, null],
      [{ discord: 'old#12' }, 'discord'],
      [{ wallet: `0x${'g'.repeat(40)}` }, 'wallet'],
      [{ email: `${'a'.repeat(250)}@x.io` }, 'email'],
    ];
    for (const [patch, field] of cases) {
      const r = await call(t, p, 'POST', '/apply-for-beta/', { ...valid(), ...patch, wallet: patch.wallet ?? 'bad' });
      // The wallet is always bad here, so no application is made; the other field is judged alone.
      const fields = r.json().errors.map((e: { field: string }) => e.field);
      expect(fields, JSON.stringify(patch)).toEqual(field && field !== 'wallet' ? [field, 'wallet'] : ['wallet']);
    }
  });

  it('refuses missing or oversized fields without a 5xx', async () => {
    const p = await makePlayer(t);
    const missing = await call(t, p, 'POST', '/apply-for-beta/', { telegram: '@pxt_player' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('invalid');
    const huge = await call(t, p, 'POST', '/apply-for-beta/', { ...valid(), discord: 'x'.repeat(5000) });
    expect(huge.statusCode).toBe(400);
    expect(huge.json().errors[0].field).toBe('discord');
  });

  it('accepts one application, paying reached invite awards first, and refuses a second', async () => {
    const p = await makePlayer(t, accountReady());
    await completeBetaTasks(t, p);
    expect((await call(t, p, 'GET', '/beta/status/')).json()).toMatchObject({
      is_eligible: true,
      completed_tasks: 9,
      missing_tasks: [],
      applied: false,
    });

    const body = { telegram: 'pxt_player', discord: 'PXT.Player', email: 'player@example.com', wallet: randomWallet() };
    const res = await call(t, p, 'POST', '/apply-for-beta/', body);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      detail: 'Заявка на бета-тестирование принята',
      code: 'beta_applied',
      application: { telegram: '@pxt_player', discord: 'pxt.player', email: 'player@example.com', wallet: body.wallet },
    });
    expect((await ledgerRows(t, p.id, 'referral_award')).map((r) => Number(r.amount))).toEqual([4, 8, 12]);
    expect(await expectBalanceMatchesLedger(t, p.id)).toBe(25 + 45 + 24);

    const again = await call(t, p, 'POST', '/apply-for-beta/', valid());
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ detail: 'Заявка уже подана', code: 'beta_already_applied' });
    expect((await call(t, p, 'GET', '/beta/status/')).json()).toEqual({
      is_eligible: true,
      has_access: true,
      completed_tasks: 9,
      total_required_tasks: 9,
      missing_tasks: [],
      applied: true,
    });
  });

  it('keeps one application when 10 arrive at once', async () => {
    const p = await makePlayer(t, accountReady());
    await completeBetaTasks(t, p);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => call(t, p, 'POST', '/apply-for-beta/', valid())),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 400).every((r) => r.json().code === 'beta_already_applied')).toBe(
      true,
    );
    expect(
      await t.app.db.selectFrom('beta_applications').selectAll().where('user_id', '=', p.id).execute(),
    ).toHaveLength(1);
    expect(await ledgerRows(t, p.id, 'referral_award')).toHaveLength(3);
    expect(await expectBalanceMatchesLedger(t, p.id)).toBe(25 + 45 + 24);
  });
});
