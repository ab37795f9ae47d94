import { accessFor } from '../helpers/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../server/services/users';
import { API, bearer, otherIp, quickUser, registerAndConfirm, walletLogin } from '../helpers/accounts';
import { claimFirstSession } from '../helpers/mining';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('player record and account details on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const me = (access: string) => t.app.inject({ method: 'GET', url: `${API}/auth/me`, headers: bearer(access) });
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
  let nameCounter = 0;
  const freshName = (prefix = 'nick') => `${prefix}${dialect.slice(0, 2)}${++nameCounter}`.slice(0, 15);

  describe('GET /auth/me', () => {
    it('answers the spec fields with their types', async () => {
      const { user, access } = await quickUser(t, {
        username: freshName(),
        walletAddress: '0x000000000000000000000000000000000000dEaD',
      });
      await t.app.db
        .updateTable('users')
        .set({ balance: 125, token: 1_234_567, gems: 50, ico: 1, language: 0 })
        .where('id', '=', user.id)
        .execute();
      const res = await me(access);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        username: user.username,
        email: '',
        wallet_address: '0x000000000000000000000000000000000000dEaD',
        balance: 125,
        token: 1.234567,
        gems: 50,
        referral_link: `http://app.test/?refCode=${user.referral_code}`,
        password_set: false,
        mining: false,
        ico: true,
        language: false,
      });
    });

    it('has no trailing slash in the spec and needs a valid token', async () => {
      const { access } = await quickUser(t);
      expect((await t.app.inject({ method: 'GET', url: `${API}/auth/me` })).statusCode).toBe(401);
      const bad = await t.app.inject({ method: 'GET', url: `${API}/auth/me`, headers: bearer(`${access}x`) });
      expect(bad.statusCode).toBe(401);
      expect(bad.json().code).toBe('token_not_valid');
    });
  });

  describe('PATCH /auth/complete-registration/', () => {
    it('saves a trimmed username of 5 to 15 characters', async () => {
      const { access } = await walletLogin(t);
      const name = freshName();
      const res = await complete(access, { username: `  ${name} `, referral_link: '' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ detail: expect.any(String), username: name, referrer_recorded: false });
      expect((await me(access)).json().username).toBe(name);

      for (const username of ['  abcd  ', 'a'.repeat(16), '', 'ab\u0000cde']) {
        const bad = await complete(access, { username });
        expect(bad.statusCode).toBe(400);
        expect(bad.json().errors[0].field).toBe('username');
      }
      expect((await me(access)).json().username).toBe(name);
    });

    it('refuses a username another player has, in any case, with "username is already taken"', async () => {
      const taken = freshName('Taken');
      await quickUser(t, { username: taken });
      const { access } = await quickUser(t);
      const res = await complete(access, { username: taken.toUpperCase() });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ detail: 'username is already taken', code: 'username_taken' });
      // Keeping one's own name is not "taken".
      const own = await quickUser(t, { username: freshName('Own') });
      expect((await complete(own.access, { username: own.user.username!.toLowerCase() })).statusCode).toBe(200);
    });

    it('gives a name to one of two players claiming it at once', async () => {
      const name = freshName('race');
      const [a, b] = [await quickUser(t), await quickUser(t)];
      const results = await Promise.all([
        complete(a.access, { username: name }),
        complete(b.access, { username: name }),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    });

    it('records the referrer from the refCode of the link, once', async () => {
      const referrer = await quickUser(t, { username: freshName('ref') });
      const second = await quickUser(t, { username: freshName('ref') });
      const { user, access } = await quickUser(t);
      const link = `http://app.test/mining?utm_source=x&refCode=${encodeURIComponent(referrer.user.referral_code)}`;
      const res = await complete(access, { username: freshName(), referral_link: link });
      expect(res.json().referrer_recorded).toBe(true);
      expect(await referrerOf(user.id)).toBe(referrer.user.id);

      const again = await complete(access, {
        username: freshName(),
        referral_link: `http://app.test/?refCode=${second.user.referral_code}`,
      });
      expect(again.statusCode).toBe(200);
      expect(again.json().referrer_recorded).toBe(false);
      expect(await referrerOf(user.id)).toBe(referrer.user.id);
    });

    it('reads a relative link too, and ignores unknown codes, garbage and absent links', async () => {
      const referrer = await quickUser(t);
      const a = await quickUser(t);
      expect(
        (
          await complete(a.access, { username: freshName(), referral_link: `/?refCode=${referrer.user.referral_code}` })
        ).json().referrer_recorded,
      ).toBe(true);
      for (const referral_link of [
        'http://app.test/?refCode=doesnotexist',
        'http://[::1',
        '?refCode=%00%01',
        null,
        undefined,
        'x'.repeat(2048),
      ]) {
        const b = await quickUser(t);
        const res = await complete(b.access, { username: freshName(), referral_link });
        expect(res.statusCode, String(referral_link)).toBe(200);
        expect(await referrerOf(b.user.id)).toBeNull();
      }
    });

    it('ignores a self-referral and saves the username, then and at every later rename with the stored link', async () => {
      const self = await quickUser(t, { username: freshName('self') });
      const link = `http://app.test/?refCode=${self.user.referral_code}`;
      for (let i = 0; i < 2; i++) {
        const name = freshName('self');
        const res = await complete(self.access, { username: name, referral_link: link });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toEqual({ detail: expect.any(String), username: name, referrer_recorded: false });
        expect((await me(self.access)).json().username).toBe(name);
      }
      expect(await referrerOf(self.user.id)).toBeNull();
    });

    it('lets an e-mail player pick a username after confirming', async () => {
      const { access } = await registerAndConfirm(t);
      expect((await me(access)).json().username).toBe('');
      const name = freshName('mail');
      expect((await complete(access, { username: name, referral_link: '' })).statusCode).toBe(200);
      expect((await me(access)).json().username).toBe(name);
    });
  });

  describe('referrals', () => {
    const list = (access: string) => t.app.inject({ method: 'GET', url: `${API}/referrals/`, headers: bearer(access) });
    const detail = (access: string, id: number | string) =>
      t.app.inject({ method: 'GET', url: `${API}/referrals/${id}/`, headers: bearer(access) });

    it("lists the player's own referrals newest first, marks the active ones, and shows one of them", async () => {
      const referrer = await quickUser(t);
      const base = Date.now() - 10_000;
      const older = await createUser(t.app.db, { username: freshName('old') }, base);
      const newer = await createUser(
        t.app.db,
        { walletAddress: '0x1111111111111111111111111111111111111111' },
        base + 5000,
      );
      await t.app.db
        .updateTable('users')
        .set({ referrer_id: referrer.user.id })
        .where('id', 'in', [older.id, newer.id])
        .execute();
      // Through the API as well.
      const third = await quickUser(t);
      await complete(third.access, {
        username: freshName('thr'),
        referral_link: `http://app.test/?refCode=${referrer.user.referral_code}`,
      });
      // Active once they have claimed a mining session (decisions §12).
      await claimFirstSession(t, { id: older.id, token: await accessFor(t, older.id) });

      const res = await list(referrer.access);
      expect(res.statusCode).toBe(200);
      const rows = res.json();
      expect(rows.map((r: { id: number }) => r.id)).toEqual([third.user.id, newer.id, older.id]);
      expect(rows[1]).toEqual({
        id: newer.id,
        username: null,
        wallet_address: '0x1111111111111111111111111111111111111111',
        joined_at: new Date(base + 5000).toISOString(),
        active: false,
      });
      expect(rows[2]).toEqual({
        id: older.id,
        username: older.username,
        wallet_address: null,
        joined_at: new Date(base).toISOString(),
        active: true,
      });

      const one = await detail(referrer.access, older.id);
      expect(one.statusCode).toBe(200);
      expect(one.json()).toEqual(rows[2]);
      expect(rows[0].active).toBe(false);
      expect((await detail(referrer.access, newer.id)).json().active).toBe(false);
    });

    it("never shows another player's referrals", async () => {
      const a = await quickUser(t);
      const b = await quickUser(t);
      const ofA = await createUser(t.app.db, {});
      await t.app.db.updateTable('users').set({ referrer_id: a.user.id }).where('id', '=', ofA.id).execute();
      expect((await list(b.access)).json()).toEqual([]);
      for (const id of [ofA.id, a.user.id, b.user.id, 999_999_999]) {
        const res = await detail(b.access, id);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ detail: 'User not found in your referral list', code: 'referral_not_found' });
      }
      expect((await detail(a.access, ofA.id)).statusCode).toBe(200);
    });

    it('refuses bad ids and missing sign-in', async () => {
      const { access } = await quickUser(t);
      for (const id of ['abc', '0', '-1', '1.5', '99999999999999999999'])
        expect((await detail(access, id)).statusCode, id).toBe(400);
      expect((await t.app.inject({ method: 'GET', url: `${API}/referrals/` })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: `${API}/referrals/1/` })).statusCode).toBe(401);
    });
  });
});
