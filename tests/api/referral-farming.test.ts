// Referral farming (issue 11, decisions §12 "Active friends"): scripted wallets that sign up through
// a link give the referrer nothing until they claim a mining session; referrers are recorded only
// at the first username choice within 24 h of the account's creation, never replaced; new accounts
// per client address are limited (SIGNUP_LIMIT_PER_HOUR).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERRAL_BOOST_CAP_PERCENT } from '@shared/constants';
import { API, bearer, newWallet, otherIp, PASSWORD, quickUser, signLogin, uniqueEmail } from '../helpers/accounts';
import { claimFirstSession } from '../helpers/mining';
import { expectBalanceMatchesLedger, ledgerRows } from '../helpers/quest-fixtures';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('referral farming on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { MINING_SESSION_SECONDS: '1' });
  });
  afterAll(() => t.close());

  let names = 0;
  const freshName = (prefix = 'farm') => `${prefix}${dialect.slice(0, 2)}${++names}`.slice(0, 15);
  const get = (access: string, url: string) =>
    t.app.inject({ method: 'GET', url: `${API}${url}`, headers: bearer(access) });
  const complete = (access: string, payload: object) =>
    t.app.inject({
      method: 'PATCH',
      url: `${API}/auth/complete-registration/`,
      payload,
      headers: bearer(access),
      remoteAddress: otherIp(),
    });
  const referrerOf = async (id: number) =>
    (await t.app.db.selectFrom('users').select('referrer_id').where('id', '=', id).executeTakeFirstOrThrow())
      .referrer_id;
  const linkOf = (code: string) => `http://app.test/?refCode=${encodeURIComponent(code)}`;

  /** A scripted new wallet: signs in (a new account) and names itself with the referrer's link. */
  async function farmedWallet(link: string) {
    const account = newWallet();
    const login = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/login/`,
      payload: await signLogin(account),
      remoteAddress: '203.0.113.7',
    });
    expect(login.statusCode, login.body).toBe(200);
    const { access } = login.json() as { access: string };
    const named = await complete(access, { username: freshName('bot'), referral_link: link });
    expect(named.statusCode, named.body).toBe(200);
    const me = await t.app.db
      .selectFrom('users')
      .select('id')
      .where('wallet_address', '=', account.address)
      .executeTakeFirstOrThrow();
    return { id: Number(me.id), token: access, recorded: named.json().referrer_recorded as boolean };
  }

  it('pays nothing for 10 scripted wallet referrals until they claim a session, then exactly the rules', async () => {
    const referrer = await quickUser(t, { username: freshName('farmer') });
    const bots = await Promise.all(Array.from({ length: 10 }, () => farmedWallet(linkOf(referrer.user.referral_code))));
    // The referrals are recorded (they are real sign-ups through the link) …
    expect(bots.every((b) => b.recorded)).toBe(true);
    const list = (await get(referrer.access, '/referrals/')).json() as { id: number; active: boolean }[];
    expect(list).toHaveLength(10);
    expect(list.every((r) => r.active === false)).toBe(true);

    // … but give nothing: no boost, no award, no coins, no invite quest.
    const boost = await get(referrer.access, '/mining/reward-referral-boost/');
    expect(boost.statusCode).toBe(400);
    expect(boost.json().code).toBe('no_new_referrals');
    expect((await get(referrer.access, '/mining/boosts/')).json()).toMatchObject({
      referral_total_boost: 0,
      referral_count: 0,
      referral_waiting: 0,
    });
    const award = await get(referrer.access, '/referrals/add-reward/');
    expect(award.statusCode).toBe(200);
    expect(award.json()).toMatchObject({ reward: 0, code: 'no_new_rewards' });
    expect((await get(referrer.access, '/tasks/completed/')).json().completed_tasks).toEqual([]);
    expect((await get(referrer.access, '/beta/status/')).json().missing_tasks).toEqual(
      expect.arrayContaining(['invite_2', 'invite_4', 'invite_6']),
    );
    expect(await ledgerRows(t, referrer.user.id, 'referral_award')).toHaveLength(0);
    expect(await expectBalanceMatchesLedger(t, referrer.user.id)).toBe(0);
    expect(
      await t.app.db.selectFrom('rate_boosts').select('id').where('user_id', '=', referrer.user.id).execute(),
    ).toHaveLength(0);

    // Three friends play: three count.
    for (const bot of bots.slice(0, 3)) await claimFirstSession(t, bot);
    // Issue 16: the boosts answer says how many wait, so the page can offer the claim only then.
    expect((await get(referrer.access, '/mining/boosts/')).json()).toMatchObject({ referral_waiting: 3 });
    const three = await get(referrer.access, '/mining/reward-referral-boost/');
    expect(three.json()).toMatchObject({ added: 3, referral_total_boost: 30, referral_count: 3 });
    expect((await get(referrer.access, '/mining/boosts/')).json()).toMatchObject({ referral_waiting: 0 });
    expect((await get(referrer.access, '/referrals/add-reward/')).json()).toMatchObject({ reward: 4, awards: [2] });
    const marked = (await get(referrer.access, '/referrals/')).json() as { id: number; active: boolean }[];
    expect(
      marked
        .filter((r) => r.active)
        .map((r) => r.id)
        .sort(),
    ).toEqual(
      bots
        .slice(0, 3)
        .map((b) => b.id)
        .sort(),
    );

    // All ten play: the rules' figures, +10 % each (capped) and the 2/4/6/10 awards, 44 coins.
    for (const bot of bots.slice(3)) await claimFirstSession(t, bot);
    expect((await get(referrer.access, '/mining/reward-referral-boost/')).json()).toMatchObject({
      added: 7,
      referral_total_boost: REFERRAL_BOOST_CAP_PERCENT,
      referral_count: 10,
    });
    expect((await get(referrer.access, '/referrals/add-reward/')).json()).toMatchObject({
      reward: 8 + 12 + 20,
      awards: [4, 6, 10],
    });
    expect((await ledgerRows(t, referrer.user.id, 'referral_award')).map((r) => Number(r.amount))).toEqual([
      4, 8, 12, 20,
    ]);
    expect(await expectBalanceMatchesLedger(t, referrer.user.id)).toBe(44);
  });

  it('ignores a referral link sent more than 24 hours after the account was created, and saves the name', async () => {
    const referrer = await quickUser(t, { username: freshName('ref') });
    const late = await quickUser(t);
    await t.app.db
      .updateTable('users')
      .set({ created_at: Date.now() - 25 * 60 * 60 * 1000 })
      .where('id', '=', late.user.id)
      .execute();
    const name = freshName('late');
    const res = await complete(late.access, { username: name, referral_link: linkOf(referrer.user.referral_code) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ detail: expect.any(String), username: name, referrer_recorded: false });
    expect(await referrerOf(late.user.id)).toBeNull();

    // Just inside the window it counts.
    const inTime = await quickUser(t);
    await t.app.db
      .updateTable('users')
      .set({ created_at: Date.now() - 23 * 60 * 60 * 1000 })
      .where('id', '=', inTime.user.id)
      .execute();
    expect(
      (
        await complete(inTime.access, {
          username: freshName('intime'),
          referral_link: linkOf(referrer.user.referral_code),
        })
      ).json().referrer_recorded,
    ).toBe(true);
  });

  it('records a referrer only at the first username choice: a later rename with a link records none', async () => {
    const referrer = await quickUser(t, { username: freshName('ref') });
    const { access } = await quickUser(t);
    expect((await complete(access, { username: freshName('first'), referral_link: '' })).json().referrer_recorded).toBe(
      false,
    );
    const rename = await complete(access, {
      username: freshName('second'),
      referral_link: linkOf(referrer.user.referral_code),
    });
    expect(rename.statusCode).toBe(200);
    expect(rename.json().referrer_recorded).toBe(false);
    expect((await get(referrer.access, '/referrals/')).json()).toEqual([]);
  });

  it('never replaces a referrer, also when two first choices with different links race', async () => {
    const [a, b] = [
      await quickUser(t, { username: freshName('refa') }),
      await quickUser(t, { username: freshName('refb') }),
    ];
    const friend = await quickUser(t);
    const answers = await Promise.all([
      complete(friend.access, { username: freshName('racea'), referral_link: linkOf(a.user.referral_code) }),
      complete(friend.access, { username: freshName('raceb'), referral_link: linkOf(b.user.referral_code) }),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(answers.filter((r) => r.json().referrer_recorded)).toHaveLength(1);
    const recorded = await referrerOf(friend.user.id);
    expect([a.user.id, b.user.id]).toContain(Number(recorded));
    for (const link of [linkOf(a.user.referral_code), linkOf(b.user.referral_code)]) {
      expect(
        (await complete(friend.access, { username: freshName('later'), referral_link: link })).json().referrer_recorded,
      ).toBe(false);
    }
    expect(Number(await referrerOf(friend.user.id))).toBe(Number(recorded));
  });

  it('lets a player who opened their own link rename as often as they like', async () => {
    const wallet = newWallet();
    const login = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/login/`,
      payload: await signLogin(wallet),
      remoteAddress: otherIp(),
    });
    const { access } = login.json() as { access: string };
    const own = (await t.app.inject({ method: 'GET', url: `${API}/auth/me`, headers: bearer(access) })).json()
      .referral_link as string;
    // The client stored the link it arrived with and sends it with every username change.
    for (let i = 0; i < 3; i++) {
      const name = freshName('own');
      const res = await complete(access, { username: name, referral_link: own });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ detail: expect.any(String), username: name, referrer_recorded: false });
    }
    const me = await t.app.db
      .selectFrom('users')
      .select('referrer_id')
      .where('wallet_address', '=', wallet.address)
      .executeTakeFirstOrThrow();
    expect(me.referrer_id).toBeNull();
  });

  describe('new accounts per client address', () => {
    let limited: TestApp;
    beforeAll(async () => {
      limited = await createTestApp(dialect, { SIGNUP_LIMIT_PER_HOUR: '10' });
    });
    afterAll(() => limited.close());

    const walletSignUp = async (ip: string, account = newWallet()) =>
      limited.app.inject({
        method: 'POST',
        url: `${API}/auth/login/`,
        payload: await signLogin(account),
        remoteAddress: ip,
      });
    const register = (ip: string) => {
      const password = PASSWORD;
      return limited.app.inject({
        method: 'POST',
        url: `${API}/auth/register/`,
        payload: { email: uniqueEmail('limit'), password, confirm_password: password },
        remoteAddress: ip,
      });
    };

    it('refuses the 11th new account from one address with 429 and Retry-After; other addresses and sign-ins go on', async () => {
      const ip = '198.51.100.20';
      const first = newWallet();
      expect((await walletSignUp(ip, first)).statusCode).toBe(200);
      for (let i = 0; i < 8; i++) expect((await walletSignUp(ip)).statusCode).toBe(200);
      expect((await register(ip)).statusCode).toBe(201); // the 10th, by e-mail

      const refused = await walletSignUp(ip);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ detail: expect.any(String), code: 'throttled' });
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      const byMail = await register(ip);
      expect(byMail.statusCode).toBe(429);
      expect(byMail.headers['retry-after']).toBeDefined();

      // Nothing was created by the refused calls.
      const count = await limited.app.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(10);
      // Signing in to an existing account is not a sign-up.
      expect((await walletSignUp(ip, first)).statusCode).toBe(200);
      // Another address is not affected.
      expect((await walletSignUp('198.51.100.21')).statusCode).toBe(200);

      // An hour later the address may sign up again.
      await limited.app.db
        .updateTable('throttle')
        .set({ window_start: Date.now() - 61 * 60 * 1000 })
        .where('key', '=', `signup:ip:${ip}`)
        .execute();
      expect((await walletSignUp(ip)).statusCode).toBe(200);
    });

    it('creates at most the limit of accounts when 20 sign-ups from one address arrive at once', async () => {
      const ip = '198.51.100.50';
      const answers = await Promise.all(Array.from({ length: 20 }, () => walletSignUp(ip)));
      const codes = answers.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 200)).toHaveLength(10);
      expect(codes.filter((c) => c === 429)).toHaveLength(10);
      const row = await limited.app.db
        .selectFrom('throttle')
        .select('count')
        .where('key', '=', `signup:ip:${ip}`)
        .executeTakeFirstOrThrow();
      expect(Number(row.count)).toBe(10);
    });

    it('is off with SIGNUP_LIMIT_PER_HOUR=0', async () => {
      // `t` runs with the tests' default, 0.
      const ip = '198.51.100.30';
      for (let i = 0; i < 15; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: `${API}/auth/login/`,
          payload: await signLogin(newWallet()),
          remoteAddress: ip,
        });
        expect(res.statusCode).toBe(200);
      }
    });
  });
});
