import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_FAILURES_PER_ADDRESS, LOGIN_FAILURES_PER_IP, LOGIN_WINDOW_MS, MAILS_PER_ADDRESS } from '../../server/services/throttle';
import { API, newWallet, otherIp, PASSWORD, registerAndConfirm, signLogin, uniqueEmail } from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('throttling failed sign-ins on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const login = (email: string, password: string, ip = otherIp()) =>
    t.app.inject({ method: 'POST', url: `${API}/auth/login-by-email/`, payload: { email, password }, remoteAddress: ip });
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
    await t.app.db.updateTable('throttle').set({ window_start: Date.now() - LOGIN_WINDOW_MS - 1 }).where('key', '=', `login:email:${email}`).execute();
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

  it('counts simultaneous failures exactly (one atomic upsert per key)', async () => {
    const email = uniqueEmail('burst');
    const results = await Promise.all(Array.from({ length: 4 }, () => fail(email)));
    expect(results.every((r) => r.statusCode === 400)).toBe(true);
    const row = await t.app.db.selectFrom('throttle').select('count').where('key', '=', `login:email:${email}`).executeTakeFirstOrThrow();
    expect(row.count).toBe(4);
  });

  it('counts bad wallet signatures against the wallet address', async () => {
    const owner = newWallet();
    const impostor = newWallet();
    for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS; i++) {
      const forged = await signLogin(impostor, Date.now() + i);
      const res = await t.app.inject({ method: 'POST', url: `${API}/auth/login/`, payload: { ...forged, address: owner.address }, remoteAddress: otherIp() });
      expect(res.json().code).toBe('invalid_signature');
    }
    const real = await t.app.inject({ method: 'POST', url: `${API}/auth/login/`, payload: await signLogin(owner), remoteAddress: otherIp() });
    expectThrottled(real);
  });

  it(`limits link mails to ${MAILS_PER_ADDRESS} per address, known or not`, async () => {
    // The registration mail of the known address counts too.
    const cases = [{ email: (await registerAndConfirm(t)).email, allowed: MAILS_PER_ADDRESS - 1 }, { email: uniqueEmail('unknown'), allowed: MAILS_PER_ADDRESS }];
    for (const { email, allowed } of cases) {
      const reset = () => t.app.inject({ method: 'POST', url: `${API}/auth/password-reset/`, payload: { email }, remoteAddress: otherIp() });
      for (let i = 0; i < allowed; i++) expect((await reset()).statusCode).toBe(200);
      expectThrottled(await reset());
    }
  });
});
