import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneUsedSignatures } from '../../server/services/wallet-signature';
import {
  API,
  bearer,
  newWallet,
  otherIp,
  PASSWORD,
  registerAndConfirm,
  signBind,
  signLogin,
} from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const MINUTE = 60_000;

describe.each(testDialects())('wallet sign-in and binding on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { APP_NAME: 'Pixel Test' });
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `${API}${url}`, payload, headers, remoteAddress: otherIp() });
  const me = async (access: string) =>
    (await t.app.inject({ method: 'GET', url: `${API}/auth/me`, headers: bearer(access) })).json();
  const login = (body: object) => post('/auth/login/', body);
  const product = 'Pixel Test';

  it('creates a player named after the checksummed wallet on first sign-in, and signs the same player in later', async () => {
    const account = newWallet();
    const body = await signLogin(account, Date.now(), product);
    const first = await login({ ...body, address: body.address.toLowerCase() });
    expect(first.statusCode).toBe(200);
    // decisions §13: every sign-in also answers the browser's known-device string.
    expect(Object.keys(first.json()).sort()).toEqual(['access', 'device', 'refresh']);
    const record = await me(first.json().access);
    expect(record.wallet_address).toBe(getAddress(account.address));
    expect(record.username).toBe(getAddress(account.address));
    expect(record.email).toBe('');

    const second = await login(await signLogin(account, Date.now() + 1, product));
    expect(second.statusCode).toBe(200);
    expect((await me(second.json().access)).wallet_address).toBe(record.wallet_address);
    expect(
      await t.app.db.selectFrom('users').select('id').where('wallet_address', '=', record.wallet_address).execute(),
    ).toHaveLength(1);
  });

  it('signs the text with APP_NAME as the product; another product name is refused', async () => {
    const account = newWallet();
    const wrong = await login(await signLogin(account, Date.now(), 'PXT Companion'));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('invalid_signature');
    const numericString = await signLogin(account, Date.now(), product);
    expect((await login({ ...numericString, timestamp: String(numericString.timestamp) })).statusCode).toBe(200);
  });

  it('accepts each signature once', async () => {
    const body = await signLogin(newWallet(), Date.now(), product);
    expect((await login(body)).statusCode).toBe(200);
    const replay = await login(body);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe('signature_used');
  });

  it('refuses the same message again with the signature in its other valid form (s ↔ n−s)', async () => {
    const body = await signLogin(newWallet(), Date.now(), product);
    expect((await login(body)).statusCode).toBe(200);
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const hex = body.signature.slice(2);
    const s = BigInt(`0x${hex.slice(64, 128)}`);
    const v = parseInt(hex.slice(128, 130), 16);
    const twin = `0x${hex.slice(0, 64)}${(n - s).toString(16).padStart(64, '0')}${(v === 27 ? 28 : 27).toString(16)}`;
    const res = await login({ ...body, signature: twin });
    expect(res.statusCode).toBe(400);
  });

  it('lets one of several simultaneous uses of a signature through', async () => {
    const body = await signLogin(newWallet(), Date.now(), product);
    const results = await Promise.all([1, 2, 3].map(() => login(body)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400, 400]);
  });

  it('creates one player when a new wallet signs in twice at once with two signatures', async () => {
    const account = newWallet();
    const now = Date.now();
    const results = await Promise.all([
      login(await signLogin(account, now, product)),
      login(await signLogin(account, now + 1, product)),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(
      await t.app.db.selectFrom('users').select('id').where('wallet_address', '=', account.address).execute(),
    ).toHaveLength(1);
  });

  it('refuses timestamps more than 5 minutes off the server clock, either way', async () => {
    const account = newWallet();
    for (const offset of [-6 * MINUTE, 6 * MINUTE]) {
      const res = await login(await signLogin(account, Date.now() + offset, product));
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('signature_expired');
    }
    expect((await login(await signLogin(account, Date.now() - 4 * MINUTE, product))).statusCode).toBe(200);
    expect((await login(await signLogin(account, Date.now() + 4 * MINUTE, product))).statusCode).toBe(200);
  });

  it('refuses a signature by another key, and the binding text used to log in', async () => {
    const owner = newWallet();
    const forged = await signLogin(newWallet(), Date.now(), product);
    const res = await login({ ...forged, address: owner.address });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_signature');
    expect((await login(await signBind(owner))).json().code).toBe('invalid_signature');
    const garbage = await login({ address: owner.address, timestamp: Date.now(), signature: `0x${'ab'.repeat(65)}` });
    expect(garbage.statusCode).toBe(400);
  });

  describe('binding a wallet to an account', () => {
    it('binds a wallet to an e-mail account; the wallet then signs into that account', async () => {
      const { access, email } = await registerAndConfirm(t);
      const account = newWallet();
      // decisions §13: linking a method needs proof of the account, here its password.
      const res = await post('/auth/add-wallet/', { ...(await signBind(account)), password: PASSWORD }, bearer(access));
      expect(res.statusCode).toBe(200);
      expect(res.json().wallet_address).toBe(account.address);
      expect((await me(access)).wallet_address).toBe(account.address);
      const viaWallet = await login(await signLogin(account, Date.now(), product));
      expect((await me(viaWallet.json().access)).email).toBe(email);
    });

    it('refuses a wallet that belongs to another account, a second wallet, replays and missing sign-in', async () => {
      const { account } = await walletLoginAs();
      const { access } = await registerAndConfirm(t);
      const proof = { password: PASSWORD };
      const taken = await post('/auth/add-wallet/', { ...(await signBind(account)), ...proof }, bearer(access));
      expect(taken.statusCode).toBe(400);
      expect(taken.json().code).toBe('wallet_in_use');

      const mine = newWallet();
      const bind = { ...(await signBind(mine)), ...proof };
      expect((await post('/auth/add-wallet/', bind, bearer(access))).statusCode).toBe(200);
      // decisions §13: an account with a wallet is refused before the signature is looked at, even for the same wallet.
      const again = await post('/auth/add-wallet/', bind, bearer(access));
      expect(again.statusCode).toBe(400);
      expect(again.json().code).toBe('wallet_already_set');
      // The used signature replayed by another account (with its own proof) is still refused.
      const other = await registerAndConfirm(t);
      const replay = await post('/auth/add-wallet/', bind, bearer(other.access));
      expect(replay.statusCode).toBe(400);
      expect(replay.json().code).toBe('signature_used');
      expect((await me(other.access)).wallet_address).toBe('');
      const second = await post('/auth/add-wallet/', { ...(await signBind(newWallet())), ...proof }, bearer(access));
      expect(second.statusCode).toBe(400);
      expect(second.json().code).toBe('wallet_already_set');
      expect((await post('/auth/add-wallet/', await signBind(newWallet()))).statusCode).toBe(401);
      expect((await me(access)).wallet_address).toBe(mine.address);
    });

    it('refuses to bind without proof of the account, or with a wrong password', async () => {
      const { access } = await registerAndConfirm(t);
      const bare = await post('/auth/add-wallet/', await signBind(newWallet()), bearer(access));
      expect(bare.statusCode).toBe(403);
      expect(bare.json().code).toBe('reauth_required');
      const wrong = await post(
        '/auth/add-wallet/',
        { ...(await signBind(newWallet())), password: 'not-the-password' },
        bearer(access),
      );
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().code).toBe('invalid_password');
      expect((await me(access)).wallet_address).toBe('');
    });

    it('refuses a login signature used to bind', async () => {
      const { access } = await registerAndConfirm(t);
      const res = await post(
        '/auth/add-wallet/',
        { ...(await signLogin(newWallet(), Date.now(), product)), password: PASSWORD },
        bearer(access),
      );
      expect(res.json().code).toBe('invalid_signature');
    });
  });

  it('forgets used signatures once they are too old to be accepted anyway', async () => {
    const now = Date.now();
    await t.app.db
      .insertInto('used_signatures')
      .values({ message_hash: `old-${dialect}`, created_at: now - 60 * MINUTE })
      .execute();
    await t.app.db
      .insertInto('used_signatures')
      .values({ message_hash: `new-${dialect}`, created_at: now })
      .execute();
    await pruneUsedSignatures(t.app.db, now + 2 * MINUTE);
    const left = await t.app.db
      .selectFrom('used_signatures')
      .select('message_hash')
      .where('message_hash', 'in', [`old-${dialect}`, `new-${dialect}`])
      .execute();
    expect(left.map((r) => r.message_hash)).toEqual([`new-${dialect}`]);
  });

  async function walletLoginAs() {
    const account = newWallet();
    const res = await login(await signLogin(account, Date.now(), product));
    expect(res.statusCode).toBe(200);
    return { account, ...res.json() };
  }
});
