// Verified follows (decisions §14) of the Discord server: linked through OAuth2 (a state of this
// player used once, the account proof) against a Discord stand-in over real HTTP, the follow pays
// only for a member of the guild, once, and once per Discord account; a Discord that does not
// answer pays nothing and answers the documented 503, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/services/passwords';
import { PASSWORD } from '../helpers/accounts';
import type { DiscordStandIn } from '../helpers/discord-stand-in';
import { call, expectBalanceMatchesLedger, makePlayer, type Player } from '../helpers/quest-fixtures';
import { type TestApp, testDialects } from '../helpers/test-app';
import {
  APP_URL,
  expectNothingPaid,
  follow,
  followChecks,
  socialRows,
  startVerifiedFollows,
  type VerifiedFollows,
} from '../helpers/verified-follows';

let emails = 0;
let dcIds = 400_000_000_000_000_000n;

describe.each(testDialects())('verified Discord follow on %s', (dialect) => {
  let t: TestApp;
  let dc: DiscordStandIn;
  let servers: VerifiedFollows;
  let passwordHash: string;
  beforeAll(async () => {
    servers = await startVerifiedFollows(dialect);
    ({ t, dc } = servers);
    passwordHash = await hashPassword(PASSWORD, 14);
  });
  afterAll(() => servers.close());

  let discordUser: { id: string; username: string; global_name: string };
  const nextDiscordUser = () => {
    const id = String(++dcIds);
    return { id, username: `player${id.slice(-4)}`, global_name: `Player ${id.slice(-4)}` };
  };
  const withPassword = () => makePlayer(t, { email: `d${++emails}@example.com`, emailConfirmed: true, passwordHash });
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

    expect((await follow(t, p, 'discord')).json().code).toBe('discord_not_linked');

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

    const before = await followChecks(t, 'discord', 'not_member');
    const out = await follow(t, p, 'discord');
    expect(out.statusCode).toBe(400);
    expect(out.json()).toMatchObject({ code: 'not_a_member', network: 'discord' });
    expect(await followChecks(t, 'discord', 'not_member')).toBe(before + 1);
    await expectNothingPaid(t, p);

    dc.setMember(discordUser.id, true);
    const paid = await Promise.all([follow(t, p, 'discord'), follow(t, p, 'discord'), follow(t, p, 'discord')]);
    expect(paid.map((r) => r.statusCode).sort()).toEqual([200, 400, 400]);
    expect((await follow(t, p, 'discord')).json().code).toBe('reward_already_granted');
    expect(await socialRows(t, p)).toHaveLength(1);
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
    expect((await follow(t, owner, 'discord')).statusCode).toBe(200);
    await t.app.db
      .updateTable('users')
      .set({ discord_id: null, discord_token: null, discord_token_expires_at: null })
      .where('id', '=', owner.id)
      .execute();
    const p = await withPassword();
    await linked(p, user);
    const res = await follow(t, p, 'discord');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'follow_already_rewarded', network: 'discord' });
    await expectNothingPaid(t, p);
    expect(await expectBalanceMatchesLedger(t, owner.id)).toBe(15);
  });

  it('connects the same Discord again without proof when Discord revoked the token', async () => {
    const p = await withPassword();
    const user = await linked(p);
    dc.setMember(user.id, true);
    dc.revoke(user.id);
    const res = await follow(t, p, 'discord');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('discord_not_linked');
    expect((await call(t, p, 'GET', '/tasks/follows/')).json().discord_linked).toBe(false);
    await expectNothingPaid(t, p);

    const again = await link(p, { code: dc.authorize(user), state: await start(p) });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().action).toBe('refreshed');
    expect((await follow(t, p, 'discord')).statusCode).toBe(200);
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
    const before = await followChecks(t, 'discord', 'error');
    for (const mode of ['down', 'hang'] as const) {
      dc[mode] = true;
      try {
        const res = await follow(t, p, 'discord');
        expect(res.statusCode, mode).toBe(503);
        expect(res.json().code).toBe('check_unavailable');
      } finally {
        dc[mode] = false;
      }
    }
    expect(await followChecks(t, 'discord', 'error')).toBe(before + 2);
    await expectNothingPaid(t, p);
    expect((await follow(t, p, 'discord')).statusCode).toBe(200);
  });
});
