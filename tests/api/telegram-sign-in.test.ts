// decisions §14 with §13's proof: Telegram signs players in with the Mini App's init data or the
// Login Widget's fields, signed as Telegram signs them (tests/helpers/telegram-signing.ts) with the
// bot token of a local Bot API stand-in. Forged, tampered, stale and replayed data are refused and
// create nothing; linking needs proof; a Telegram account belongs to one player; and since the
// check is local, a Telegram that is down or hangs never holds any sign-in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  bearer,
  otherIp,
  PASSWORD,
  reauthFor,
  registerAndConfirm,
  signLogin,
  newWallet,
} from '../helpers/accounts';
import { signInitData, signLoginWidget, testBotToken, type TelegramTestUser } from '../helpers/telegram-signing';
import { startTelegramStandIn, type TelegramStandIn } from '../helpers/telegram-stand-in';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const DAY_S = 86_400;
let nextTelegramId = 7_000_000_000 + Math.floor(Math.random() * 1_000_000) * 100;

describe.each(testDialects())('Telegram sign-in on %s', (dialect) => {
  let t: TestApp;
  let off: TestApp;
  let tg: TelegramStandIn;

  beforeAll(async () => {
    tg = await startTelegramStandIn();
    t = await createTestApp(dialect, tg.env);
    off = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
    await off?.close();
    await tg?.close();
  });

  const newTelegramUser = (extra: Partial<TelegramTestUser> = {}): TelegramTestUser => {
    const id = ++nextTelegramId;
    return { id, first_name: 'Ivan', last_name: 'Petrov', username: `ivan_${id}`, language_code: 'ru', ...extra };
  };
  const initData = (user: TelegramTestUser, authDate?: number) => signInitData(tg.botToken, { user, authDate });
  const widget = (user: TelegramTestUser, authDate?: number) => signLoginWidget(tg.botToken, { user, authDate });
  const post = (url: string, payload: object, access?: string, app = t) =>
    app.app.inject({
      method: 'POST',
      url: `${API}${url}`,
      payload,
      headers: access ? bearer(access) : {},
      remoteAddress: otherIp(),
    });
  const signIn = (payload: object, access?: string) => post('/auth/telegram/', payload, access);
  const accountsOf = async (telegramId: number) =>
    (await t.app.db.selectFrom('users').select('id').where('telegram_id', '=', String(telegramId)).execute()).map((r) =>
      Number(r.id),
    );
  const counts = async () => ({
    users: Number(
      (
        await t.app.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    sessions: Number(
      (
        await t.app.db
          .selectFrom('sessions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  });
  const me = async (access: string) =>
    (await t.app.inject({ method: 'GET', url: `${API}/auth/me`, headers: bearer(access) })).json();
  const methods = async (access: string) =>
    (await t.app.inject({ method: 'GET', url: `${API}/auth/methods/`, headers: bearer(access) })).json().methods as {
      kind: string;
      label: string;
      added_at: string | null;
    }[];

  it('a new player signs in with init data (registered, no username yet), and again as the same account', async () => {
    const user = newTelegramUser();
    const first = await signIn({ init_data: initData(user) });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      access: expect.any(String),
      refresh: expect.any(String),
      device: expect.any(String),
      action: 'registered',
      username: '',
    });
    // Like a new wallet player: nothing but Telegram, and the client asks for a username next.
    expect(await me(first.json().access)).toMatchObject({ username: '', email: '', wallet_address: '' });
    expect(await methods(first.json().access)).toEqual([
      { kind: 'telegram', label: `@${user.username}`, added_at: expect.any(String) },
    ]);

    const again = await signIn({ init_data: initData(user) });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().action).toBe('logged_in');
    expect(await accountsOf(user.id)).toHaveLength(1);
    // The Login Widget names the same Telegram account: the same player.
    const byWidget = await signIn({ login: widget(user) });
    expect(byWidget.statusCode, byWidget.body).toBe(200);
    expect(byWidget.json().action).toBe('logged_in');
    expect(await accountsOf(user.id)).toHaveLength(1);
  });

  it('names a player without a Telegram username by first and last name', async () => {
    const user = newTelegramUser({ username: undefined });
    const res = await signIn({ login: widget(user) });
    expect(res.statusCode, res.body).toBe(200);
    expect((await methods(res.json().access))[0].label).toBe('Ivan Petrov');
  });

  /** Forged, tampered, stale and replayed data of each kind, each with its code; `replay` is used once first. */
  const badCases = (kind: 'init data' | 'Login Widget data') => {
    const sign = (user: TelegramTestUser, opts: { token?: string; authDate?: number } = {}) =>
      kind === 'init data'
        ? { init_data: signInitData(opts.token ?? tg.botToken, { user, authDate: opts.authDate }) }
        : { login: signLoginWidget(opts.token ?? tg.botToken, { user, authDate: opts.authDate }) };
    const tamper = (body: ReturnType<typeof sign>, user: TelegramTestUser) => {
      if ('init_data' in body) {
        const fields = new URLSearchParams(body.init_data);
        fields.set('user', JSON.stringify({ ...user, id: user.id + 1 }));
        return { init_data: fields.toString() };
      }
      return { login: { ...body.login, id: String(user.id + 1) } };
    };
    return { sign, tamper };
  };

  for (const kind of ['init data', 'Login Widget data'] as const) {
    it(`refuses forged, tampered, stale and replayed ${kind} with their codes, creating nothing`, async () => {
      const { sign, tamper } = badCases(kind);
      const user = newTelegramUser();
      const now = Math.floor(Date.now() / 1000);
      const before = await counts();
      const refusals = [
        ['forged', sign(user, { token: testBotToken() }), 'telegram_data_invalid'],
        ['tampered', tamper(sign(user), user), 'telegram_data_invalid'],
        ['stale', sign(user, { authDate: now - DAY_S - 3600 }), 'telegram_data_expired'],
        ['from the future', sign(user, { authDate: now + 3600 }), 'telegram_data_invalid'],
      ] as const;
      for (const [what, body, code] of refusals) {
        const res = await signIn(body);
        expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
        expect(res.json().code, what).toBe(code);
        expect(res.json().detail, what).toEqual(expect.any(String));
      }
      expect(await counts()).toEqual(before);
      expect(await accountsOf(user.id)).toEqual([]);
      expect(await accountsOf(user.id + 1)).toEqual([]);

      const once = sign(user);
      expect((await signIn(once)).statusCode).toBe(200);
      const afterFirst = await counts();
      const replay = await signIn(once);
      expect(replay.statusCode, replay.body).toBe(400);
      expect(replay.json().code).toBe('telegram_data_used');
      expect(await counts()).toEqual(afterFirst);
    });
  }

  it('links Telegram to a signed-in player only with proof, and Telegram then signs in to that account', async () => {
    const owner = await registerAndConfirm(t);
    const user = newTelegramUser();
    const data = { login: widget(user) };
    const bare = await signIn(data, owner.access);
    expect(bare.statusCode, bare.body).toBe(403);
    expect(bare.json().code).toBe('reauth_required');
    expect(await accountsOf(user.id)).toEqual([]);

    // The same data again with proof, as the client does after its reauth prompt: not spent by the 403.
    const reauth = await reauthFor(t, owner.access, { password: PASSWORD });
    const linked = await signIn({ ...data, reauth }, owner.access);
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json()).toEqual({ detail: expect.any(String), action: 'linked' });
    expect((await methods(owner.access)).map((m) => m.kind).sort()).toEqual(['password', 'telegram']);
    const ownerId = (await accountsOf(user.id))[0];
    expect(ownerId).toEqual(expect.any(Number));

    const signedIn = await signIn({ init_data: initData(user) });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().action).toBe('logged_in');
    expect(await accountsOf(user.id)).toEqual([ownerId]);

    // The password works as proof in the same call too.
    const other = await registerAndConfirm(t);
    const second = newTelegramUser();
    const withPassword = await signIn({ init_data: initData(second), password: PASSWORD }, other.access);
    expect(withPassword.statusCode, withPassword.body).toBe(200);
    expect(await accountsOf(second.id)).toHaveLength(1);
  });

  it('refuses a link to an account that already has another Telegram, and a Telegram linked elsewhere', async () => {
    const owner = await registerAndConfirm(t);
    const first = newTelegramUser();
    expect((await signIn({ login: widget(first), password: PASSWORD }, owner.access)).statusCode).toBe(200);

    const another = newTelegramUser();
    const twice = await signIn({ login: widget(another), password: PASSWORD }, owner.access);
    expect(twice.statusCode, twice.body).toBe(400);
    expect(twice.json().code).toBe('telegram_already_set');
    expect(await accountsOf(another.id)).toEqual([]);

    const stranger = await registerAndConfirm(t);
    const taken = await signIn({ init_data: initData(first), password: PASSWORD }, stranger.access);
    expect(taken.statusCode, taken.body).toBe(400);
    expect(taken.json().code).toBe('telegram_in_use');
    expect(await accountsOf(first.id)).toHaveLength(1);
    expect((await methods(stranger.access)).map((m) => m.kind)).toEqual(['password']);
  });

  it("reauth takes the account's own Telegram init data, once", async () => {
    const user = newTelegramUser();
    const player = (await signIn({ init_data: initData(user) })).json() as { access: string };
    const data = initData(user);
    const ok = await post('/auth/reauth/', { init_data: data }, player.access);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ reauth: expect.any(String), expires_at: expect.any(String) });
    const replay = await post('/auth/reauth/', { init_data: data }, player.access);
    expect(replay.json().code).toBe('telegram_data_used');

    const someoneElse = await post('/auth/reauth/', { init_data: initData(newTelegramUser()) }, player.access);
    expect(someoneElse.statusCode).toBe(400);
    expect(someoneElse.json().code).toBe('telegram_account_mismatch');
    const forged = await post('/auth/reauth/', { init_data: signInitData(testBotToken(), { user }) }, player.access);
    expect(forged.json().code).toBe('telegram_data_invalid');
    const noTelegram = await registerAndConfirm(t);
    const none = await post('/auth/reauth/', { init_data: initData(newTelegramUser()) }, noTelegram.access);
    expect(none.statusCode).toBe(400);
    expect(none.json().code).toBe('telegram_not_linked');
  });

  it("reauth on the web takes the Login Widget's fields of the account's own Telegram, once", async () => {
    const user = newTelegramUser();
    const player = (await signIn({ login: widget(user, Math.floor(Date.now() / 1000) - 60) })).json() as {
      access: string;
    };
    const fields = widget(user);
    const ok = await post('/auth/reauth/', { login: fields }, player.access);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ reauth: expect.any(String), expires_at: expect.any(String) });
    expect((await post('/auth/reauth/', { login: fields }, player.access)).json().code).toBe('telegram_data_used');
    const other = await post('/auth/reauth/', { login: widget(newTelegramUser()) }, player.access);
    expect(other.json().code).toBe('telegram_account_mismatch');
    const tampered = await post('/auth/reauth/', { login: { ...widget(user), first_name: 'Eve' } }, player.access);
    expect(tampered.json().code).toBe('telegram_data_invalid');
  });

  it('DELETE /auth/methods/telegram/ removes it with proof, never as the last method', async () => {
    const owner = await registerAndConfirm(t);
    const user = newTelegramUser();
    expect((await signIn({ init_data: initData(user), password: PASSWORD }, owner.access)).statusCode).toBe(200);
    const remove = (access: string, payload: object = {}) =>
      t.app.inject({
        method: 'DELETE',
        url: `${API}/auth/methods/telegram/`,
        payload,
        headers: bearer(access),
        remoteAddress: otherIp(),
      });
    const bare = await remove(owner.access);
    expect(bare.statusCode).toBe(403);
    expect(bare.json().code).toBe('reauth_required');
    const done = await remove(owner.access, { password: PASSWORD });
    expect(done.statusCode, done.body).toBe(200);
    expect((await methods(owner.access)).map((m) => m.kind)).toEqual(['password']);
    const row = await t.app.db
      .selectFrom('users')
      .select(['telegram_id', 'telegram_name', 'telegram_added_at'])
      .where('email', '=', owner.email)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ telegram_id: null, telegram_name: null, telegram_added_at: null });
    // That Telegram account now signs in to an account of its own.
    const fresh = await signIn({ init_data: initData(user) });
    expect(fresh.json().action).toBe('registered');

    // A Telegram-only player cannot remove their only way in, even with proof.
    const reauth = await reauthFor(t, fresh.json().access, { init_data: initData(user) });
    const last = await remove(fresh.json().access, { reauth });
    expect(last.statusCode).toBe(400);
    expect(last.json().code).toBe('last_method');
  });

  it('lists a linked Discord by its name, removable with proof, never counted as a way to sign in', async () => {
    const user = newTelegramUser();
    const player = (await signIn({ init_data: initData(user) })).json() as { access: string };
    const [id] = await accountsOf(user.id);
    await t.app.db
      .updateTable('users')
      .set({
        discord_id: `d-${user.id}`,
        discord_name: 'neon#0001',
        discord_added_at: Date.now(),
        discord_token: 'sealed',
        discord_token_expires_at: Date.now() + 60_000,
      })
      .where('id', '=', id)
      .execute();
    expect((await methods(player.access)).map((m) => [m.kind, m.label])).toEqual([
      ['telegram', `@${user.username}`],
      ['discord', 'neon#0001'],
    ]);
    const remove = async (kind: string) =>
      t.app.inject({
        method: 'DELETE',
        url: `${API}/auth/methods/${kind}/`,
        payload: { reauth: await reauthFor(t, player.access, { init_data: initData(user) }) },
        headers: bearer(player.access),
        remoteAddress: otherIp(),
      });
    // Discord alone would leave no way to sign in.
    const last = await remove('telegram');
    expect(last.statusCode).toBe(400);
    expect(last.json().code).toBe('last_method');
    const gone = await remove('discord');
    expect(gone.statusCode, gone.body).toBe(200);
    expect((await methods(player.access)).map((m) => m.kind)).toEqual(['telegram']);
    const row = await t.app.db
      .selectFrom('users')
      .select(['discord_id', 'discord_name', 'discord_added_at', 'discord_token', 'discord_token_expires_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    // Its OAuth token goes with it: nothing of the Discord account stays behind.
    expect(row).toEqual({
      discord_id: null,
      discord_name: null,
      discord_added_at: null,
      discord_token: null,
      discord_token_expires_at: null,
    });
  });

  it('the account cleanup deletes replay records of expired signatures only', async () => {
    const user = newTelegramUser();
    expect((await signIn({ init_data: initData(user) })).statusCode).toBe(200);
    const old = newTelegramUser();
    expect((await signIn({ login: widget(old, Math.floor(Date.now() / 1000) - DAY_S + 60) })).statusCode).toBe(200);
    const hashes = async () =>
      Number(
        (
          await t.app.db
            .selectFrom('telegram_auth_hashes')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await hashes();
    // Two minutes on, the older signature is past its 24 h; the newer is not.
    const done = await t.app.accountCleanup.tick(Date.now() + 120_000);
    expect(done.telegramHashes).toBeGreaterThanOrEqual(1);
    expect(await hashes()).toBe(before - done.telegramHashes);
    expect(await hashes()).toBeGreaterThanOrEqual(1);
  });

  it('without Telegram settings the call answers 503 telegram_off', async () => {
    const user = newTelegramUser();
    for (const body of [{ init_data: initData(user) }, { login: widget(user) }]) {
      const res = await post('/auth/telegram/', body, undefined, off);
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().code).toBe('telegram_off');
    }
    const player = await registerAndConfirm(off);
    const reauth = await post('/auth/reauth/', { init_data: initData(user) }, player.access, off);
    expect(reauth.statusCode).toBe(503);
    expect(reauth.json().code).toBe('telegram_off');
  });

  it('Telegram down or hanging never fails a sign-in of another kind, nor one with init data', async () => {
    for (const state of ['hang', 'down'] as const) {
      tg[state] = true;
      try {
        const email = await registerAndConfirm(t);
        const byEmail = await post('/auth/login-by-email/', { email: email.email, password: PASSWORD });
        expect(byEmail.statusCode, `${state}: ${byEmail.body}`).toBe(200);
        const byWallet = await post('/auth/login/', await signLogin(newWallet()));
        expect(byWallet.statusCode, `${state}: ${byWallet.body}`).toBe(200);
        const byTelegram = await signIn({ init_data: initData(newTelegramUser()) });
        expect(byTelegram.statusCode, `${state}: ${byTelegram.body}`).toBe(200);
      } finally {
        tg[state] = false;
      }
    }
  });
});
