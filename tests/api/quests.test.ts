import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskMessageRu } from '@shared/task-messages';
import {
  accountReady,
  call,
  expectBalanceMatchesLedger,
  ledgerRows,
  makePlayer,
  randomWallet,
} from '../helpers/quest-fixtures';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('account quests and social follows on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('needs a signed-in player', async () => {
    const res = await call(t, null, 'GET', '/check-wallet/');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('token_not_valid');
  });

  it('refuses each account quest until its condition holds, with the Russian text and a code', async () => {
    const wallet = randomWallet();
    const p = await makePlayer(t, {
      username: wallet,
      walletAddress: null,
      email: 'half@example.com',
      emailConfirmed: false,
      passwordHash: 'h',
    });

    const wal = await call(t, p, 'GET', '/check-wallet/');
    expect(wal.statusCode).toBe(400);
    expect(wal.json()).toEqual({ detail: 'Кошелёк не добавлен', code: 'wallet_not_added' });

    const mail = await call(t, p, 'GET', '/check-email-password/');
    expect(mail.statusCode).toBe(400);
    expect(mail.json()).toEqual({ detail: 'Почта и пароль не подтверждены', code: 'email_password_not_confirmed' });

    // A username equal to the wallet address (a wallet sign-up's default) is not a nickname.
    await t.app.db.updateTable('users').set({ wallet_address: wallet.toLowerCase() }).where('id', '=', p.id).execute();
    const nick = await call(t, p, 'GET', '/check-username/');
    expect(nick.statusCode).toBe(400);
    expect(nick.json()).toEqual({ detail: taskMessageRu('username_not_set'), code: 'username_not_set' });

    // Confirmed e-mail without a password is still not enough.
    await t.app.db
      .updateTable('users')
      .set({ email_confirmed: 1, password_hash: null })
      .where('id', '=', p.id)
      .execute();
    expect((await call(t, p, 'GET', '/check-email-password/')).json().code).toBe('email_password_not_confirmed');

    expect(await ledgerRows(t, p.id, 'quest_account')).toHaveLength(0);
    expect(await expectBalanceMatchesLedger(t, p.id)).toBe(0);
  });

  it('pays 5, 10 and 10 coins once each when the conditions hold', async () => {
    const p = await makePlayer(t, accountReady());
    const paid = [];
    for (const [path, coins] of [
      ['/check-username/', 5],
      ['/check-wallet/', 10],
      ['/check-email-password/', 10],
    ] as const) {
      const res = await call(t, p, 'GET', path);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ detail: 'Награда начислена', code: 'reward_granted', reward: coins });
      paid.push(res.json().balance);
    }
    expect(paid).toEqual([5, 15, 25]);

    const again = await call(t, p, 'GET', '/check-wallet/');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ detail: 'Награда уже начислена', code: 'reward_already_granted' });

    const rows = await ledgerRows(t, p.id, 'quest_account');
    expect(rows.map((r) => [r.ref, Number(r.amount), r.currency])).toEqual([
      ['Добавить никнейм', 5, 'balance'],
      ['Подключить кошелёк', 10, 'balance'],
      ['Добавить почту и пароль', 10, 'balance'],
    ]);
    expect(await expectBalanceMatchesLedger(t, p.id)).toBe(25);
  });

  it('says already granted even after the condition stopped holding', async () => {
    const p = await makePlayer(t, accountReady());
    expect((await call(t, p, 'GET', '/check-wallet/')).statusCode).toBe(200);
    await t.app.db.updateTable('users').set({ wallet_address: null }).where('id', '=', p.id).execute();
    expect((await call(t, p, 'GET', '/check-wallet/')).json().code).toBe('reward_already_granted');
  });

  it('pays an account quest once under 10 parallel requests', async () => {
    const p = await makePlayer(t, accountReady());
    const results = await Promise.all(Array.from({ length: 10 }, () => call(t, p, 'GET', '/check-email-password/')));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 400).every((r) => r.json().code === 'reward_already_granted')).toBe(
      true,
    );
    expect(await ledgerRows(t, p.id, 'quest_account')).toHaveLength(1);
    expect(await expectBalanceMatchesLedger(t, p.id)).toBe(10);
  });

  it('replays an answer for a repeated Idempotency-Key without paying again', async () => {
    const p = await makePlayer(t, accountReady());
    const first = await call(t, p, 'GET', '/check-username/', undefined, { 'idempotency-key': 'k-1' });
    const replay = await call(t, p, 'GET', '/check-username/', undefined, { 'idempotency-key': 'k-1' });
    expect(first.statusCode).toBe(200);
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    expect(await expectBalanceMatchesLedger(t, p.id)).toBe(5);
  });

  it('pays each social follow 15 coins once and lists the granted ones', async () => {
    const p = await makePlayer(t);
    const first = await call(t, p, 'POST', '/tasks/social-media-reward/', { network: 'telegram_ru' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      detail: 'Награда начислена',
      code: 'reward_granted',
      rewards: [{ network: 'telegram_ru', reward: 15 }],
    });

    const second = await call(t, p, 'POST', '/tasks/social-media-reward/', { network: 'discord' });
    expect(second.json().rewards).toEqual([
      { network: 'telegram_ru', reward: 15 },
      { network: 'discord', reward: 15 },
    ]);

    const repeat = await call(t, p, 'POST', '/tasks/social-media-reward/', { network: 'telegram_ru' });
    expect(repeat.statusCode).toBe(400);
    expect(repeat.json()).toEqual({ detail: 'Награда уже начислена', code: 'reward_already_granted' });

    const rows = await ledgerRows(t, p.id, 'quest_social');
    expect(rows.map((r) => r.ref)).toEqual(['Подписаться на русский Telegram-канал', 'Вступить в сообщество Discord']);
    expect(await expectBalanceMatchesLedger(t, p.id)).toBe(30);
  });

  it('refuses unknown or missing networks with a field error', async () => {
    const p = await makePlayer(t);
    for (const body of [{ network: 'twitter' }, {}, { network: 7 }]) {
      const res = await call(t, p, 'POST', '/tasks/social-media-reward/', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('invalid');
      expect(res.json().errors[0].field).toBe('network');
    }
    expect(await expectBalanceMatchesLedger(t, p.id)).toBe(0);
  });

  it('pays a social follow once under 10 parallel requests', async () => {
    const p = await makePlayer(t);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => call(t, p, 'POST', '/tasks/social-media-reward/', { network: 'telegram_eng' })),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 400)).toHaveLength(9);
    expect(await ledgerRows(t, p.id, 'quest_social')).toHaveLength(1);
    expect(await expectBalanceMatchesLedger(t, p.id)).toBe(15);
  });
});
