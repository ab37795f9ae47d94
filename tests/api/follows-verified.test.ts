// Verified follows (decisions §14) of the Telegram channels: with the channels configured, the two
// follow quests pay only for members, asked of a Bot API stand-in (getChatMember) over real HTTP.
// Paid once, whatever the race, and once per Telegram account; a Telegram that does not answer pays
// nothing and answers the documented 503, never a 500; without the settings the follow stays the
// trusted click of §7. Discord's follow: follows-verified-discord.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectBalanceMatchesLedger, makePlayer } from '../helpers/quest-fixtures';
import type { TelegramStandIn } from '../helpers/telegram-stand-in';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';
import {
  expectNothingPaid,
  follow,
  followChecks,
  socialRows,
  startVerifiedFollows,
  type VerifiedFollows,
} from '../helpers/verified-follows';

let tgIds = 700_000_000;

describe.each(testDialects())('verified follows on %s', (dialect) => {
  let t: TestApp;
  let tg: TelegramStandIn;
  let servers: VerifiedFollows;
  beforeAll(async () => {
    servers = await startVerifiedFollows(dialect);
    ({ t, tg } = servers);
  });
  afterAll(() => servers.close());

  const withTelegram = async () => {
    const telegramId = ++tgIds;
    const p = await makePlayer(t);
    await t.app.db
      .updateTable('users')
      .set({ telegram_id: String(telegramId), telegram_name: 'Player', telegram_added_at: Date.now() })
      .where('id', '=', p.id)
      .execute();
    return { ...p, telegramId };
  };

  it('says the follows are verified in the public config', async () => {
    const res = await call(t, null, 'GET', '/config/');
    expect(res.json().verified_follows).toEqual({ telegram_ru: true, telegram_eng: true, discord: true });
  });

  it('pays a channel member 15 once; a second call says already granted, without asking Telegram', async () => {
    const p = await withTelegram();
    tg.setMember('@pxt_ru', p.telegramId, 'member');
    const before = await followChecks(t, 'telegram_ru', 'member');
    const first = await follow(t, p, 'telegram_ru');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ code: 'reward_granted', rewards: [{ network: 'telegram_ru', reward: 15 }] });
    expect(await followChecks(t, 'telegram_ru', 'member')).toBe(before + 1);
    const asked = tg.callsOf('getChatMember').length;
    expect(tg.callsOf('getChatMember').at(-1)!.body).toMatchObject({ chat_id: '@pxt_ru', user_id: p.telegramId });

    const again = await follow(t, p, 'telegram_ru');
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('reward_already_granted');
    expect(tg.callsOf('getChatMember')).toHaveLength(asked);
    expect(await socialRows(t, p)).toHaveLength(1);
    expect(await expectBalanceMatchesLedger(t, p.id)).toBe(15);
  });

  it('pays once when a member sends the follow several times at once', async () => {
    const p = await withTelegram();
    tg.setMember('@pxt_en', p.telegramId, 'administrator');
    const answers = await Promise.all(Array.from({ length: 6 }, () => follow(t, p, 'telegram_eng')));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    for (const a of answers.filter((r) => r.statusCode === 400)) expect(a.json().code).toBe('reward_already_granted');
    expect(await socialRows(t, p)).toHaveLength(1);
    expect(await expectBalanceMatchesLedger(t, p.id)).toBe(15);
  });

  it('pays a channel once per Telegram account: linked to another player after it was paid, it pays nothing more', async () => {
    const first = await withTelegram();
    tg.setMember('@pxt_ru', first.telegramId, 'member');
    tg.setMember('@pxt_en', first.telegramId, 'member');
    expect((await follow(t, first, 'telegram_ru')).statusCode).toBe(200);
    // The first player removes Telegram and a second links the same Telegram account.
    const second = await makePlayer(t);
    await t.app.db.updateTable('users').set({ telegram_id: null }).where('id', '=', first.id).execute();
    await t.app.db
      .updateTable('users')
      .set({ telegram_id: String(first.telegramId), telegram_name: 'Player', telegram_added_at: Date.now() })
      .where('id', '=', second.id)
      .execute();
    const again = await follow(t, second, 'telegram_ru');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'follow_already_rewarded', network: 'telegram_ru' });
    expect(again.json().detail).toMatch(/[а-я]/i);
    await expectNothingPaid(t, second);
    // Per channel: the international one was never paid for this account.
    expect((await follow(t, second, 'telegram_eng')).statusCode).toBe(200);
    expect(await expectBalanceMatchesLedger(t, second.id)).toBe(15);
    // Linked back, the account is the first player's again, who was paid once.
    await t.app.db.updateTable('users').set({ telegram_id: null }).where('id', '=', second.id).execute();
    await t.app.db
      .updateTable('users')
      .set({ telegram_id: String(first.telegramId) })
      .where('id', '=', first.id)
      .execute();
    expect((await follow(t, first, 'telegram_ru')).json().code).toBe('reward_already_granted');
    expect((await follow(t, first, 'telegram_eng')).json().code).toBe('follow_already_rewarded');
    expect(await socialRows(t, first)).toHaveLength(1);
    expect(await expectBalanceMatchesLedger(t, first.id)).toBe(15);
  });

  it('refuses a player who is not in the channel with not_a_member, and pays once they join', async () => {
    const p = await withTelegram();
    const before = await followChecks(t, 'telegram_eng', 'not_member');
    const res = await follow(t, p, 'telegram_eng');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'not_a_member', network: 'telegram_eng' });
    expect(res.json().detail).toMatch(/[а-я]/i);
    expect(await followChecks(t, 'telegram_eng', 'not_member')).toBe(before + 1);
    await expectNothingPaid(t, p);
    // The Russian channel says nothing about the international one.
    tg.setMember('@pxt_ru', p.telegramId, 'member');
    expect((await follow(t, p, 'telegram_eng')).json().code).toBe('not_a_member');
    tg.setMember('@pxt_en', p.telegramId, 'creator');
    expect((await follow(t, p, 'telegram_eng')).statusCode).toBe(200);
    expect(await expectBalanceMatchesLedger(t, p.id)).toBe(15);
  });

  it('refuses a player without Telegram linked with telegram_not_linked, without asking Telegram', async () => {
    const p = await makePlayer(t);
    const asked = tg.callsOf('getChatMember').length;
    const before = await followChecks(t, 'telegram_ru', 'not_linked');
    const res = await follow(t, p, 'telegram_ru');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'telegram_not_linked', network: 'telegram_ru' });
    expect(tg.callsOf('getChatMember')).toHaveLength(asked);
    expect(await followChecks(t, 'telegram_ru', 'not_linked')).toBe(before + 1);
    expect(await call(t, p, 'GET', '/tasks/follows/').then((r) => r.json())).toEqual({
      telegram_linked: false,
      discord_linked: false,
    });
    await expectNothingPaid(t, p);
  });

  it('refuses left, kicked and restricted-without-membership; pays restricted with is_member', async () => {
    for (const [status, isMember] of [
      ['left', false],
      ['kicked', false],
      ['restricted', false],
    ] as const) {
      const p = await withTelegram();
      tg.setMember('@pxt_ru', p.telegramId, status, isMember);
      const res = await follow(t, p, 'telegram_ru');
      expect(res.statusCode, status).toBe(400);
      expect(res.json().code, status).toBe('not_a_member');
      await expectNothingPaid(t, p);
    }
    // Telegram's words for a user it cannot show in the channel (never joined, or a deleted account).
    for (const description of [
      'Bad Request: user not found',
      'Bad Request: member not found',
      'Bad Request: PARTICIPANT_ID_INVALID',
    ]) {
      const p = await withTelegram();
      tg.setMemberError('@pxt_ru', p.telegramId, description);
      const res = await follow(t, p, 'telegram_ru');
      expect(res.statusCode, description).toBe(400);
      expect(res.json().code, description).toBe('not_a_member');
      await expectNothingPaid(t, p);
    }
    const p = await withTelegram();
    tg.setMember('@pxt_ru', p.telegramId, 'restricted', true);
    expect((await follow(t, p, 'telegram_ru')).statusCode).toBe(200);
    expect(await expectBalanceMatchesLedger(t, p.id)).toBe(15);
  });

  it('answers 503 check_unavailable when Telegram is down or hangs, pays nothing, and pays once it is back', async () => {
    const p = await withTelegram();
    tg.setMember('@pxt_ru', p.telegramId, 'member');
    const before = await followChecks(t, 'telegram_ru', 'error');
    for (const mode of ['down', 'hang'] as const) {
      tg[mode] = true;
      try {
        const res = await follow(t, p, 'telegram_ru');
        expect(res.statusCode, mode).toBe(503);
        expect(res.json().code).toBe('check_unavailable');
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      } finally {
        tg[mode] = false;
      }
      await expectNothingPaid(t, p);
    }
    // Telegram answering 429 is Telegram not answering the question now.
    tg.tooManyRequests('getChatMember', 5);
    expect((await follow(t, p, 'telegram_ru')).statusCode).toBe(503);
    expect(await followChecks(t, 'telegram_ru', 'error')).toBe(before + 3);
    await expectNothingPaid(t, p);
    expect((await follow(t, p, 'telegram_ru')).statusCode).toBe(200);
  });

  it('keeps the category reward for paid follows only', async () => {
    const p = await withTelegram();
    for (const network of ['telegram_ru', 'telegram_eng', 'discord'])
      expect((await follow(t, p, network)).statusCode).toBe(400);
    const res = await call(t, p, 'GET', '/tasks/completed/');
    expect(res.json().category_completion_counts.social_quests).toBe(0);
  });
});

describe.each(testDialects())('follows without the settings on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('pays the trusted click as before, once per network; Discord linking is off', async () => {
    const p = await makePlayer(t);
    expect((await call(t, null, 'GET', '/config/')).json().verified_follows).toEqual({
      telegram_ru: false,
      telegram_eng: false,
      discord: false,
    });
    for (const network of ['telegram_ru', 'telegram_eng', 'discord']) {
      const res = await call(t, p, 'POST', '/tasks/social-media-reward/', { network });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await expectBalanceMatchesLedger(t, p.id)).toBe(45);
    const start = await call(t, p, 'GET', '/auth/discord/start/');
    expect(start.statusCode).toBe(400);
    expect(start.json().code).toBe('discord_not_configured');
    const link = await call(t, p, 'POST', '/auth/discord/', { code: 'c', state: 's' });
    expect(link.json().code).toBe('discord_not_configured');
  });
});
