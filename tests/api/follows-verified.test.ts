// Verified follows (decisions §14): with the channels and the Discord server configured, the three
// follow quests pay only for members, asked of a Bot API stand-in (getChatMember) and a Discord
// stand-in (OAuth2 and the guild member call) over real HTTP. Paid once, whatever the race; a
// network that does not answer pays nothing and answers the documented 503, never a 500; without
// the settings the follow stays the trusted click of §7.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/services/passwords';
import { PASSWORD } from '../helpers/accounts';
import { type DiscordStandIn, startDiscordStandIn } from '../helpers/discord-stand-in';
import { call, expectBalanceMatchesLedger, ledgerRows, makePlayer, type Player } from '../helpers/quest-fixtures';
import { startTelegramStandIn, type TelegramStandIn } from '../helpers/telegram-stand-in';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const APP_URL = 'http://app.test';
let tgIds = 700_000_000;
let dcIds = 400_000_000_000_000_000n;

describe.each(testDialects())('verified follows on %s', (dialect) => {
  let t: TestApp;
  let tg: TelegramStandIn;
  let dc: DiscordStandIn;
  let passwordHash: string;

  beforeAll(async () => {
    tg = await startTelegramStandIn({ channels: { ru: '@pxt_ru', en: '@pxt_en' } });
    dc = await startDiscordStandIn({ appUrl: APP_URL });
    t = await createTestApp(dialect, { ...tg.env, ...dc.env });
    // A stand-in that hangs is given up on quickly (the default is Telegram's and Discord's 10 s).
    t.app.config.telegram!.timeoutMs = 400;
    t.app.config.discord!.timeoutMs = 400;
    passwordHash = await hashPassword(PASSWORD, 14);
  });
  afterAll(async () => {
    await t.close();
    await tg.close();
    await dc.close();
  });

  const follow = (p: Player, network: string) => call(t, p, 'POST', '/tasks/social-media-reward/', { network });
  const socialRows = (p: Player) => ledgerRows(t, p.id, 'quest_social');
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
  const checks = async (network: string, result: string) => {
    const metric = await t.app.metrics.followChecks.get();
    return metric.values.find((v) => v.labels.network === network && v.labels.result === result)?.value ?? 0;
  };
  const expectNothingPaid = async (p: Player) => {
    expect(await socialRows(p)).toHaveLength(0);
    expect(await expectBalanceMatchesLedger(t, p.id)).toBe(0);
  };

  it('says the follows are verified in the public config', async () => {
    const res = await call(t, null, 'GET', '/config/');
    expect(res.json().verified_follows).toEqual({ telegram_ru: true, telegram_eng: true, discord: true });
  });

  it('pays a channel member 15 once; a second call says already granted, without asking Telegram', async () => {
    const p = await withTelegram();
    tg.setMember('@pxt_ru', p.telegramId, 'member');
    const before = await checks('telegram_ru', 'member');
    const first = await follow(p, 'telegram_ru');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ code: 'reward_granted', rewards: [{ network: 'telegram_ru', reward: 15 }] });
    expect(await checks('telegram_ru', 'member')).toBe(before + 1);
    const asked = tg.callsOf('getChatMember').length;
    expect(tg.callsOf('getChatMember').at(-1)!.body).toMatchObject({ chat_id: '@pxt_ru', user_id: p.telegramId });

    const again = await follow(p, 'telegram_ru');
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('reward_already_granted');
    expect(tg.callsOf('getChatMember')).toHaveLength(asked);
    expect(await socialRows(p)).toHaveLength(1);
    expect(await expectBalanceMatchesLedger(t, p.id)).toBe(15);
  });

  it('pays once when a member sends the follow several times at once', async () => {
    const p = await withTelegram();
    tg.setMember('@pxt_en', p.telegramId, 'administrator');
    const answers = await Promise.all(Array.from({ length: 6 }, () => follow(p, 'telegram_eng')));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    for (const a of answers.filter((r) => r.statusCode === 400)) expect(a.json().code).toBe('reward_already_granted');
    expect(await socialRows(p)).toHaveLength(1);
    expect(await expectBalanceMatchesLedger(t, p.id)).toBe(15);
  });

  it('pays a channel once per Telegram account: linked to another player after it was paid, it pays nothing more', async () => {
    const first = await withTelegram();
    tg.setMember('@pxt_ru', first.telegramId, 'member');
    tg.setMember('@pxt_en', first.telegramId, 'member');
    expect((await follow(first, 'telegram_ru')).statusCode).toBe(200);
    // The first player removes Telegram and a second links the same Telegram account.
    const second = await makePlayer(t);
    await t.app.db.updateTable('users').set({ telegram_id: null }).where('id', '=', first.id).execute();
    await t.app.db
      .updateTable('users')
      .set({ telegram_id: String(first.telegramId), telegram_name: 'Player', telegram_added_at: Date.now() })
      .where('id', '=', second.id)
      .execute();
    const again = await follow(second, 'telegram_ru');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'follow_already_rewarded', network: 'telegram_ru' });
    expect(again.json().detail).toMatch(/[а-я]/i);
    await expectNothingPaid(second);
    // Per channel: the international one was never paid for this account.
    expect((await follow(second, 'telegram_eng')).statusCode).toBe(200);
    expect(await expectBalanceMatchesLedger(t, second.id)).toBe(15);
    // Linked back, the account is the first player's again, who was paid once.
    await t.app.db.updateTable('users').set({ telegram_id: null }).where('id', '=', second.id).execute();
    await t.app.db
      .updateTable('users')
      .set({ telegram_id: String(first.telegramId) })
      .where('id', '=', first.id)
      .execute();
    expect((await follow(first, 'telegram_ru')).json().code).toBe('reward_already_granted');
    expect((await follow(first, 'telegram_eng')).json().code).toBe('follow_already_rewarded');
    expect(await socialRows(first)).toHaveLength(1);
    expect(await expectBalanceMatchesLedger(t, first.id)).toBe(15);
  });

  it('refuses a player who is not in the channel with not_a_member, and pays once they join', async () => {
    const p = await withTelegram();
    const before = await checks('telegram_eng', 'not_member');
    const res = await follow(p, 'telegram_eng');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'not_a_member', network: 'telegram_eng' });
    expect(res.json().detail).toMatch(/[а-я]/i);
    expect(await checks('telegram_eng', 'not_member')).toBe(before + 1);
    await expectNothingPaid(p);
    // The Russian channel says nothing about the international one.
    tg.setMember('@pxt_ru', p.telegramId, 'member');
    expect((await follow(p, 'telegram_eng')).json().code).toBe('not_a_member');
    tg.setMember('@pxt_en', p.telegramId, 'creator');
    expect((await follow(p, 'telegram_eng')).statusCode).toBe(200);
    expect(await expectBalanceMatchesLedger(t, p.id)).toBe(15);
  });

  it('refuses a player without Telegram linked with telegram_not_linked, without asking Telegram', async () => {
    const p = await makePlayer(t);
    const asked = tg.callsOf('getChatMember').length;
    const before = await checks('telegram_ru', 'not_linked');
    const res = await follow(p, 'telegram_ru');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'telegram_not_linked', network: 'telegram_ru' });
    expect(tg.callsOf('getChatMember')).toHaveLength(asked);
    expect(await checks('telegram_ru', 'not_linked')).toBe(before + 1);
    expect(await call(t, p, 'GET', '/tasks/follows/').then((r) => r.json())).toEqual({
      telegram_linked: false,
      discord_linked: false,
    });
    await expectNothingPaid(p);
  });

  it('refuses left, kicked and restricted-without-membership; pays restricted with is_member', async () => {
    for (const [status, isMember] of [
      ['left', false],
      ['kicked', false],
      ['restricted', false],
    ] as const) {
      const p = await withTelegram();
      tg.setMember('@pxt_ru', p.telegramId, status, isMember);
      const res = await follow(p, 'telegram_ru');
      expect(res.statusCode, status).toBe(400);
      expect(res.json().code, status).toBe('not_a_member');
      await expectNothingPaid(p);
    }
    // Telegram's words for a user it cannot show in the channel (never joined, or a deleted account).
    for (const description of [
      'Bad Request: user not found',
      'Bad Request: member not found',
      'Bad Request: PARTICIPANT_ID_INVALID',
    ]) {
      const p = await withTelegram();
      tg.setMemberError('@pxt_ru', p.telegramId, description);
      const res = await follow(p, 'telegram_ru');
      expect(res.statusCode, description).toBe(400);
      expect(res.json().code, description).toBe('not_a_member');
      await expectNothingPaid(p);
    }
    const p = await withTelegram();
    tg.setMember('@pxt_ru', p.telegramId, 'restricted', true);
    expect((await follow(p, 'telegram_ru')).statusCode).toBe(200);
    expect(await expectBalanceMatchesLedger(t, p.id)).toBe(15);
  });

  it('answers 503 check_unavailable when Telegram is down or hangs, pays nothing, and pays once it is back', async () => {
    const p = await withTelegram();
    tg.setMember('@pxt_ru', p.telegramId, 'member');
    const before = await checks('telegram_ru', 'error');
    for (const mode of ['down', 'hang'] as const) {
      tg[mode] = true;
      try {
        const res = await follow(p, 'telegram_ru');
        expect(res.statusCode, mode).toBe(503);
        expect(res.json().code).toBe('check_unavailable');
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      } finally {
        tg[mode] = false;
      }
      await expectNothingPaid(p);
    }
    // Telegram answering 429 is Telegram not answering the question now.
    tg.tooManyRequests('getChatMember', 5);
    expect((await follow(p, 'telegram_ru')).statusCode).toBe(503);
    expect(await checks('telegram_ru', 'error')).toBe(before + 3);
    await expectNothingPaid(p);
    expect((await follow(p, 'telegram_ru')).statusCode).toBe(200);
  });

  describe('Discord', () => {
    let discordUser: { id: string; username: string; global_name: string };
    const nextDiscordUser = () => {
      const id = String(++dcIds);
      return { id, username: `player${id.slice(-4)}`, global_name: `Player ${id.slice(-4)}` };
    };
    const withPassword = () => makePlayer(t, { email: `d${++tgIds}@example.com`, emailConfirmed: true, passwordHash });
    const start = async (p: Player) => {
      const res = await call(t, p, 'GET', '/auth/discord/start/');
      expect(res.statusCode, res.body).toBe(200);
      const url = new URL(res.json().url);
      expect(url.origin + url.pathname).toBe('https://discord.com/oauth2/authorize');
      expect(Object.fromEntries(url.searchParams)).toMatchObject({
        response_type: 'code',
        client_id: dc.clientId,
        scope: 'identify guilds.members.read',
        redirect_uri: `${APP_URL}/auth/discord/callback`,
      });
      return url.searchParams.get('state')!;
    };
    const link = (p: Player, body: Record<string, unknown>) => call(t, p, 'POST', '/auth/discord/', body);
    const linked = async (p: Player, user = nextDiscordUser()) => {
      const state = await start(p);
      const res = await link(p, { code: dc.authorize(user), state, password: PASSWORD });
      expect(res.statusCode, res.body).toBe(200);
      return user;
    };

    it('links Discord with a state of this player used once and the account proof, then checks membership', async () => {
      const p = await withPassword();
      const other = await withPassword();
      discordUser = nextDiscordUser();

      expect((await follow(p, 'discord')).json().code).toBe('discord_not_linked');

      const state = await start(p);
      // A state that is not this player's, or no state Discord's trip began with, links nothing.
      const othersState = await start(other);
      for (const s of ['forged-state', othersState]) {
        const res = await link(p, { code: dc.authorize(discordUser), state: s, password: PASSWORD });
        expect(res.statusCode).toBe(400);
        expect(res.json().code).toBe('discord_state_invalid');
      }
      // Without proof: 403, and the code and the state stay usable for the retry with proof.
      const code = dc.authorize(discordUser);
      const bare = await link(p, { code, state });
      expect(bare.statusCode).toBe(403);
      expect(bare.json().code).toBe('reauth_required');
      const wrong = await link(p, { code, state, password: 'not-the-password' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().code).toBe('invalid_password');

      const ok = await link(p, { code, state, password: PASSWORD });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toEqual({ detail: expect.any(String), action: 'linked', name: discordUser.global_name });
      const row = await t.app.db
        .selectFrom('users')
        .select(['discord_id', 'discord_name', 'discord_added_at', 'discord_token'])
        .where('id', '=', p.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ discord_id: discordUser.id, discord_name: discordUser.global_name });
      expect(row.discord_added_at).not.toBeNull();
      // The token is kept sealed, never as Discord gave it.
      expect(row.discord_token).toBeTruthy();
      expect(row.discord_token!.length).toBeGreaterThan(40);

      // The state was used.
      const reused = await link(p, { code: dc.authorize(discordUser), state, password: PASSWORD });
      expect(reused.json().code).toBe('discord_state_invalid');

      expect((await call(t, p, 'GET', '/tasks/follows/')).json()).toEqual({
        telegram_linked: false,
        discord_linked: true,
      });

      const before = await checks('discord', 'not_member');
      const out = await follow(p, 'discord');
      expect(out.statusCode).toBe(400);
      expect(out.json()).toMatchObject({ code: 'not_a_member', network: 'discord' });
      expect(await checks('discord', 'not_member')).toBe(before + 1);
      await expectNothingPaid(p);

      dc.setMember(discordUser.id, true);
      const paid = await Promise.all([follow(p, 'discord'), follow(p, 'discord'), follow(p, 'discord')]);
      expect(paid.map((r) => r.statusCode).sort()).toEqual([200, 400, 400]);
      expect((await follow(p, 'discord')).json().code).toBe('reward_already_granted');
      expect(await socialRows(p)).toHaveLength(1);
      expect(await expectBalanceMatchesLedger(t, p.id)).toBe(15);
    });

    it('refuses a Discord account linked to another player, and a second Discord on one account', async () => {
      const owner = await withPassword();
      const taken = await linked(owner);
      const p = await withPassword();
      const state = await start(p);
      const res = await link(p, { code: dc.authorize(taken), state, password: PASSWORD });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('discord_in_use');

      const mine = await linked(p);
      const another = await link(p, { code: dc.authorize(nextDiscordUser()), state: await start(p) });
      expect(another.statusCode).toBe(400);
      expect(another.json().code).toBe('discord_already_set');
      const row = await t.app.db.selectFrom('users').select('discord_id').where('id', '=', p.id).executeTakeFirst();
      expect(row?.discord_id).toBe(mine.id);
    });

    it('pays the Discord follow once per Discord account, whichever player links it', async () => {
      const owner = await withPassword();
      const user = await linked(owner);
      dc.setMember(user.id, true);
      expect((await follow(owner, 'discord')).statusCode).toBe(200);
      await t.app.db
        .updateTable('users')
        .set({ discord_id: null, discord_token: null, discord_token_expires_at: null })
        .where('id', '=', owner.id)
        .execute();
      const p = await withPassword();
      await linked(p, user);
      const res = await follow(p, 'discord');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'follow_already_rewarded', network: 'discord' });
      await expectNothingPaid(p);
      expect(await expectBalanceMatchesLedger(t, owner.id)).toBe(15);
    });

    it('connects the same Discord again without proof when Discord revoked the token', async () => {
      const p = await withPassword();
      const user = await linked(p);
      dc.setMember(user.id, true);
      dc.revoke(user.id);
      const res = await follow(p, 'discord');
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('discord_not_linked');
      expect((await call(t, p, 'GET', '/tasks/follows/')).json().discord_linked).toBe(false);
      await expectNothingPaid(p);

      const again = await link(p, { code: dc.authorize(user), state: await start(p) });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().action).toBe('refreshed');
      expect((await follow(p, 'discord')).statusCode).toBe(200);
    });

    it('refuses a code Discord does not accept, and a grant without the membership scope', async () => {
      const p = await withPassword();
      const user = nextDiscordUser();
      const forged = await link(p, { code: 'forged-code', state: await start(p), password: PASSWORD });
      expect(forged.statusCode).toBe(400);
      expect(forged.json().code).toBe('discord_code_invalid');
      const narrow = await link(p, {
        code: dc.authorize(user, { scope: 'identify' }),
        state: await start(p),
        password: PASSWORD,
      });
      expect(narrow.statusCode).toBe(400);
      expect(narrow.json().code).toBe('discord_scope_missing');
      expect((await call(t, p, 'GET', '/tasks/follows/')).json().discord_linked).toBe(false);
    });

    it('answers 503 when Discord is down or hangs, while linking and while checking; pays nothing', async () => {
      const p = await withPassword();
      const user = nextDiscordUser();
      for (const mode of ['down', 'hang'] as const) {
        const state = await start(p);
        dc[mode] = true;
        try {
          const res = await link(p, { code: dc.authorize(user), state, password: PASSWORD });
          expect(res.statusCode, mode).toBe(503);
          expect(res.json().code).toBe('discord_unavailable');
        } finally {
          dc[mode] = false;
        }
      }
      await linked(p, user);
      dc.setMember(user.id, true);
      const before = await checks('discord', 'error');
      for (const mode of ['down', 'hang'] as const) {
        dc[mode] = true;
        try {
          const res = await follow(p, 'discord');
          expect(res.statusCode, mode).toBe(503);
          expect(res.json().code).toBe('check_unavailable');
        } finally {
          dc[mode] = false;
        }
      }
      expect(await checks('discord', 'error')).toBe(before + 2);
      await expectNothingPaid(p);
      expect((await follow(p, 'discord')).statusCode).toBe(200);
    });
  });

  it('keeps the category reward for paid follows only', async () => {
    const p = await withTelegram();
    for (const network of ['telegram_ru', 'telegram_eng', 'discord'])
      expect((await follow(p, network)).statusCode).toBe(400);
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
