// The hash queue through the API, with a tiny queue (1 hash at a time, 4 waiting, 2 places per
// client address): a flood from one client is cut off with 503 `busy` + Retry-After (never a 500)
// and costs no sign-in attempts, while another player's sign-in is still served.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, otherIp, PASSWORD, registerAndConfirm, uniqueEmail } from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('the hash queue on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { HASH_CONCURRENCY: '1', HASH_QUEUE: '4', HASH_QUEUE_PER_CLIENT: '2' });
  });
  afterAll(() => t.close());

  const login = (email: string, password: string, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: `${API}/auth/login-by-email/`,
      payload: { email, password },
      remoteAddress: ip,
    });
  const ipCounter = async (ip: string) =>
    Number(
      (await t.app.db.selectFrom('throttle').select('count').where('key', '=', `login:ip:${ip}`).executeTakeFirst())
        ?.count ?? 0,
    );

  const expectBusy = (res: {
    statusCode: number;
    headers: Record<string, unknown>;
    json(): { code: string; detail: string };
  }) => {
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('busy');
    expect(res.json().detail).toMatch(/busy/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  };

  it("cuts one client's flood off with 503 busy while another player signs in", async () => {
    const player = await registerAndConfirm(t);
    const flooder = otherIp();
    const flood = Array.from({ length: 30 }, () => login(uniqueEmail('flood'), 'wrongpass1', flooder));
    const mine = login(player.email, PASSWORD, otherIp());
    const [results, own] = await Promise.all([Promise.all(flood), mine]);

    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toEqual({ access: expect.any(String), refresh: expect.any(String), device: expect.any(String) });
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.every((s) => s === 400 || s === 429 || s === 503)).toBe(true);
    const busy = results.filter((r) => r.statusCode === 503);
    expect(busy.length).toBeGreaterThan(0);
    busy.forEach(expectBusy);
    // Only checked passwords count against the client: the refused ones were given back.
    expect(await ipCounter(flooder)).toBe(statuses.filter((s) => s === 400).length);
  });

  it('answers 503 busy, never a 500, when many clients together fill the queue', async () => {
    const ips = Array.from({ length: 12 }, () => otherIp());
    const results = await Promise.all(ips.map((ip) => login(uniqueEmail('crowd'), 'wrongpass1', ip)));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.every((s) => s === 400 || s === 503)).toBe(true);
    results.filter((r) => r.statusCode === 503).forEach(expectBusy);
    // 1 running + 4 waiting: the others are refused at once.
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThanOrEqual(12 - 5);
    for (const [i, ip] of ips.entries()) expect(await ipCounter(ip)).toBe(statuses[i] === 400 ? 1 : 0);
  });
});
