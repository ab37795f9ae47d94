import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LOGIN_FAILURES_PER_ADDRESS,
  LOGIN_FAILURES_PER_IP,
  LOGIN_WINDOW_MS,
  MAILS_PER_ADDRESS,
  PASSWORD_LINK_ATTEMPTS,
} from '../../server/services/throttle';
import {
  API,
  bearer,
  isAccountNotice,
  mailedToken,
  mails,
  newWallet,
  otherIp,
  PASSWORD,
  reauthFor,
  registerAndConfirm,
  signLogin,
  uniqueEmail,
  walletLogin,
} from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('throttling failed sign-ins on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    // A roomy hash queue: these tests are about the attempt counters (hash-queue.test.ts is about the queue).
    t = await createTestApp(dialect, { HASH_QUEUE: '200', HASH_QUEUE_PER_CLIENT: '200' });
  });
  afterAll(() => t.close());

  const login = (email: string, password: string, ip = otherIp()) =>
    t.app.inject({
      method: 'POST',
      url: `${API}/auth/login-by-email/`,
      payload: { email, password },
      remoteAddress: ip,
    });
  const fail = (email: string, ip?: string) => login(email, 'wrongpass1', ip);
  const expectThrottled = (res: { statusCode: number; headers: Record<string, unknown>; json(): { code: string } }) => {
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('throttled');
    const retry = Number(res.headers['retry-after']);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(LOGIN_WINDOW_MS / 1000);
  };

  it(`refuses an address after ${LOGIN_FAILURES_PER_ADDRESS} failures, even with the right password and from other IPs`, async () => {
    const { email } = await registerAndConfirm(t);
    for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS; i++) expect((await fail(email)).statusCode).toBe(400);
    expectThrottled(await login(email, PASSWORD));
    expectThrottled(await fail(email.toUpperCase()));
    // Other addresses are not affected.
    const other = await registerAndConfirm(t);
    expect((await login(other.email, PASSWORD)).statusCode).toBe(200);
  });

  it('lets the address in again when its window has passed', async () => {
    const { email } = await registerAndConfirm(t);
    for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS; i++) await fail(email);
    expectThrottled(await login(email, PASSWORD));
    await t.app.db
      .updateTable('throttle')
      .set({ window_start: Date.now() - LOGIN_WINDOW_MS - 1 })
      .where('key', '=', `login:email:${email}`)
      .execute();
    expect((await login(email, PASSWORD)).statusCode).toBe(200);
  });

  it('clears the address counter on success', async () => {
    const { email } = await registerAndConfirm(t);
    for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS - 1; i++) await fail(email);
    expect((await login(email, PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS - 1; i++) expect((await fail(email)).statusCode).toBe(400);
    expect((await login(email, PASSWORD)).statusCode).toBe(200);
  });

  it(`refuses an IP after ${LOGIN_FAILURES_PER_IP} failures on any addresses`, async () => {
    const ip = otherIp();
    const { email } = await registerAndConfirm(t);
    for (let i = 0; i < LOGIN_FAILURES_PER_IP; i++) expect((await fail(uniqueEmail('spray'), ip)).statusCode).toBe(400);
    expectThrottled(await login(email, PASSWORD, ip));
    expect((await login(email, PASSWORD, otherIp())).statusCode).toBe(200);
  });

  const statuses = (results: { statusCode: number }[]) => results.map((r) => r.statusCode);
  const countOf = (results: { statusCode: number }[], status: number) =>
    statuses(results).filter((s) => s === status).length;
  const counter = async (key: string) =>
    Number(
      (await t.app.db.selectFrom('throttle').select('count').where('key', '=', key).executeTakeFirst())?.count ?? 0,
    );
  const BURST = 40;

  it(`checks only ${LOGIN_FAILURES_PER_ADDRESS} of ${BURST} parallel wrong guesses at one account, then refuses the right password`, async () => {
    const { email } = await registerAndConfirm(t);
    const results = await Promise.all(Array.from({ length: BURST }, () => fail(email)));
    // 400 = the password was checked; every other guess was refused before any hashing.
    expect(countOf(results, 400)).toBe(LOGIN_FAILURES_PER_ADDRESS);
    expect(countOf(results, 429)).toBe(BURST - LOGIN_FAILURES_PER_ADDRESS);
    expect(await counter(`login:email:${email}`)).toBe(LOGIN_FAILURES_PER_ADDRESS);
    expectThrottled(await login(email, PASSWORD));
    // The right password inside a second burst is not accepted either.
    const again = await Promise.all([
      ...Array.from({ length: 10 }, () => fail(email)),
      login(email, PASSWORD),
      ...Array.from({ length: 10 }, () => fail(email)),
    ]);
    expect(statuses(again).every((s) => s === 429)).toBe(true);
    expect(await counter(`login:email:${email}`)).toBe(LOGIN_FAILURES_PER_ADDRESS);
  });

  it(`checks only ${LOGIN_FAILURES_PER_IP} parallel guesses from one IP at many accounts; the IP counter is exact`, async () => {
    const ip = otherIp();
    const results = await Promise.all(Array.from({ length: BURST }, () => fail(uniqueEmail('spray'), ip)));
    expect(countOf(results, 400)).toBe(LOGIN_FAILURES_PER_IP);
    expect(countOf(results, 429)).toBe(BURST - LOGIN_FAILURES_PER_IP);
    expect(await counter(`login:ip:${ip}`)).toBe(LOGIN_FAILURES_PER_IP);
  });

  it('gives the IP its attempt back on a successful sign-in (players behind one NAT)', async () => {
    const ip = otherIp();
    const players = await Promise.all(Array.from({ length: LOGIN_FAILURES_PER_IP + 5 }, () => registerAndConfirm(t)));
    for (const p of players) expect((await login(p.email, PASSWORD, ip)).statusCode).toBe(200);
    expect(await counter(`login:ip:${ip}`)).toBe(0);
  });

  it(`checks only ${LOGIN_FAILURES_PER_ADDRESS} of ${BURST} parallel forged wallet signatures, then refuses the owner`, async () => {
    const owner = newWallet();
    const impostor = newWallet();
    const forged = await Promise.all(Array.from({ length: BURST }, (_, i) => signLogin(impostor, Date.now() + i)));
    const results = await Promise.all(
      forged.map((f) =>
        t.app.inject({
          method: 'POST',
          url: `${API}/auth/login/`,
          payload: { ...f, address: owner.address },
          remoteAddress: otherIp(),
        }),
      ),
    );
    expect(results.filter((r) => r.json().code === 'invalid_signature').length).toBe(LOGIN_FAILURES_PER_ADDRESS);
    expect(countOf(results, 429)).toBe(BURST - LOGIN_FAILURES_PER_ADDRESS);
    expect(await counter(`login:wallet:${owner.address.toLowerCase()}`)).toBe(LOGIN_FAILURES_PER_ADDRESS);
    expectThrottled(
      await t.app.inject({
        method: 'POST',
        url: `${API}/auth/login/`,
        payload: await signLogin(owner),
        remoteAddress: otherIp(),
      }),
    );
  });

  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `${API}${url}`, payload, headers, remoteAddress: otherIp() });
  // Link mails only: account notices (decisions §13, e.g. the new-device notice of registerAndConfirm's
  // sign-in) are not link mails and are not counted against the address's mail limit.
  const mailsTo = (email: string) => mails(t).filter((m) => m.to === email && !isAccountNotice(m)).length;

  it(`mails (and hashes for) an address at most ${MAILS_PER_ADDRESS} times in parallel bursts: register, password reset`, async () => {
    const fresh = uniqueEmail('burst-register');
    const registered = await Promise.all(
      Array.from({ length: 20 }, () =>
        post('/auth/register/', { email: fresh, password: PASSWORD, confirm_password: PASSWORD }),
      ),
    );
    expect(statuses(registered).filter((s) => s < 300).length).toBe(MAILS_PER_ADDRESS);
    expect(countOf(registered, 429)).toBe(20 - MAILS_PER_ADDRESS);
    expect(mailsTo(fresh)).toBe(MAILS_PER_ADDRESS);

    const { email } = await registerAndConfirm(t);
    const resets = await Promise.all(Array.from({ length: 20 }, () => post('/auth/password-reset/', { email })));
    // The registration mail counted too.
    expect(countOf(resets, 200)).toBe(MAILS_PER_ADDRESS - 1);
    expect(mailsTo(email)).toBe(MAILS_PER_ADDRESS);
  });

  it(`mails a new address at most ${MAILS_PER_ADDRESS} times in parallel bursts: change-email, add-email`, async () => {
    const { access } = await registerAndConfirm(t);
    const next = uniqueEmail('burst-change');
    const changes = await Promise.all(
      Array.from({ length: 20 }, () =>
        post('/auth/change-email/', { new_email: next, password: PASSWORD }, bearer(access)),
      ),
    );
    expect(countOf(changes, 200)).toBe(MAILS_PER_ADDRESS);
    expect(countOf(changes, 429)).toBe(20 - MAILS_PER_ADDRESS);
    expect(mailsTo(next)).toBe(MAILS_PER_ADDRESS);

    const wallet = await walletLogin(t);
    const added = uniqueEmail('burst-add');
    // decisions §13: each call brings its own proof, a single-use reauth string of the wallet.
    const reauths: string[] = [];
    for (let i = 0; i < 20; i++) reauths.push(await reauthFor(t, wallet.access, wallet.account));
    const adds = await Promise.all(
      reauths.map((reauth) =>
        post(
          '/auth/add-email-password/',
          { email: added, password: PASSWORD, confirm_password: PASSWORD, reauth },
          bearer(wallet.access),
        ),
      ),
    );
    expect(countOf(adds, 200)).toBe(MAILS_PER_ADDRESS);
    expect(countOf(adds, 429)).toBe(20 - MAILS_PER_ADDRESS);
    expect(mailsTo(added)).toBe(MAILS_PER_ADDRESS);
  });

  it(`hashes at most ${PASSWORD_LINK_ATTEMPTS} new passwords for one reset link, however many arrive at once`, async () => {
    const { email } = await registerAndConfirm(t);
    expect((await post('/auth/password-reset/', { email })).statusCode).toBe(200);
    const token = mailedToken(t, email, 'restorePassword');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post('/auth/password-reset-confirm/', { token, new_password: `newpass${i}x` }),
      ),
    );
    // Every answer but a 429 hashed a password; one of them set it.
    expect(countOf(results, 200)).toBe(1);
    expect(statuses(results).filter((s) => s !== 429).length).toBeLessThanOrEqual(PASSWORD_LINK_ATTEMPTS);
    expect(statuses(results).every((s) => s === 200 || s === 400 || s === 429)).toBe(true);
  });

  it('counts simultaneous failures exactly (one atomic upsert per key)', async () => {
    const email = uniqueEmail('burst');
    const results = await Promise.all(Array.from({ length: 4 }, () => fail(email)));
    expect(results.every((r) => r.statusCode === 400)).toBe(true);
    const row = await t.app.db
      .selectFrom('throttle')
      .select('count')
      .where('key', '=', `login:email:${email}`)
      .executeTakeFirstOrThrow();
    expect(row.count).toBe(4);
  });

  it('counts bad wallet signatures against the wallet address', async () => {
    const owner = newWallet();
    const impostor = newWallet();
    for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS; i++) {
      const forged = await signLogin(impostor, Date.now() + i);
      const res = await t.app.inject({
        method: 'POST',
        url: `${API}/auth/login/`,
        payload: { ...forged, address: owner.address },
        remoteAddress: otherIp(),
      });
      expect(res.json().code).toBe('invalid_signature');
    }
    const real = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/login/`,
      payload: await signLogin(owner),
      remoteAddress: otherIp(),
    });
    expectThrottled(real);
  });

  it(`limits link mails to ${MAILS_PER_ADDRESS} per address, known or not`, async () => {
    // The registration mail of the known address counts too.
    const cases = [
      { email: (await registerAndConfirm(t)).email, allowed: MAILS_PER_ADDRESS - 1 },
      { email: uniqueEmail('unknown'), allowed: MAILS_PER_ADDRESS },
    ];
    for (const { email, allowed } of cases) {
      const reset = () =>
        t.app.inject({
          method: 'POST',
          url: `${API}/auth/password-reset/`,
          payload: { email },
          remoteAddress: otherIp(),
        });
      for (let i = 0; i < allowed; i++) expect((await reset()).statusCode).toBe(200);
      expectThrottled(await reset());
    }
  });
});
