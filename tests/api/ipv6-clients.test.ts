// Client addresses (decisions §13, issue 21): every per-client key groups IPv6 addresses by /64, the
// block one subscriber gets. Behind nginx one IPv6 subscriber made 19 of 19 sign-ups from one /64
// with a limit of 10 an hour, and got 4 hash-queue places per address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientKey } from '../../server/lib/client-key';
import { API, PASSWORD, registerAndConfirm, signLogin, newWallet, otherIp, uniqueEmail } from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

let block = 0;
/** A fresh /64 per call, and its n-th address (any interface identifier). */
const newBlock = () => {
  const b = (++block).toString(16);
  return (n: number) =>
    `2001:db8:${b}:${b}:${((n * 4099) % 65536).toString(16)}:${n.toString(16)}:beef:${(n + 1).toString(16)}`;
};

describe('clientKey', () => {
  it('keeps IPv4, takes the /64 of IPv6 and the IPv4 of an IPv4-mapped address', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:1:2:3:4:5:6')).toBe(clientKey('2001:db8:1:2:ffff::1'));
    expect(clientKey('2001:DB8:1:2::1')).toBe(clientKey('2001:db8:1:2:0:0:0:2'));
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });
});

describe.each(testDialects())('IPv6 clients by /64 on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, {
      SIGNUP_LIMIT_PER_HOUR: '10',
      HASH_CONCURRENCY: '1',
      HASH_QUEUE: '4',
      HASH_QUEUE_PER_CLIENT: '2',
    });
  });
  afterAll(() => t.close());

  it('counts sign-ups per /64: of 19 from 19 addresses of one block the 11th is refused', async () => {
    const at = newBlock();
    const statuses: number[] = [];
    for (let i = 0; i < 19; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${API}/auth/login/`,
        payload: await signLogin(newWallet()),
        remoteAddress: at(i),
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([...Array(10).fill(200), ...Array(9).fill(429)]);
    // Another block is another subscriber.
    const other = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/login/`,
      payload: await signLogin(newWallet()),
      remoteAddress: newBlock()(0),
    });
    expect(other.statusCode).toBe(200);
  });

  it('counts sign-in attempts per /64', async () => {
    const at = newBlock();
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${API}/auth/login-by-email/`,
        payload: { email: uniqueEmail('v6'), password: 'wrongpass1' },
        remoteAddress: at(i),
      });
      statuses.push(res.statusCode);
    }
    expect(
      statuses.slice(0, 20).every((s) => s === 400),
      String(statuses),
    ).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429]);
    const row = await t.app.db
      .selectFrom('throttle')
      .select('count')
      .where('key', '=', `login:ip:${clientKey(at(0))}`)
      .executeTakeFirst();
    expect(Number(row?.count)).toBe(20);
  });

  it('counts mails per /64', async () => {
    const at = newBlock();
    for (let i = 0; i < 3; i++) {
      await t.app.inject({
        method: 'POST',
        url: `${API}/auth/password-reset/`,
        payload: { email: uniqueEmail('v6mail') },
        remoteAddress: at(i),
      });
    }
    const row = await t.app.db
      .selectFrom('throttle')
      .select('count')
      .where('key', '=', `mail:ip:${clientKey(at(0))}`)
      .executeTakeFirst();
    expect(Number(row?.count)).toBe(3);
  });

  it('gives one /64 one share of the hash queue: a flood from many of its addresses leaves room for another player', async () => {
    const player = await registerAndConfirm(t);
    const at = newBlock();
    const flood = Array.from({ length: 30 }, (_, i) =>
      t.app.inject({
        method: 'POST',
        url: `${API}/auth/login-by-email/`,
        payload: { email: uniqueEmail('v6flood'), password: 'wrongpass1' },
        remoteAddress: at(i),
      }),
    );
    const mine = t.app.inject({
      method: 'POST',
      url: `${API}/auth/login-by-email/`,
      payload: { email: player.email, password: PASSWORD },
      remoteAddress: otherIp(),
    });
    const [results, own] = await Promise.all([Promise.all(flood), mine]);
    expect(own.statusCode, own.body).toBe(200);
    // The block holds two places at a time, whichever of its addresses asks: the rest is busy (or
    // refused by the block's attempt limit), never a 500.
    expect(results.every((r) => [400, 429, 503].includes(r.statusCode))).toBe(true);
    expect(results.filter((r) => r.statusCode === 503).length).toBeGreaterThan(0);
  });
});

describe.each(testDialects())('request-rate limits for IPv6 clients on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { RATE_LIMITS: 'on' });
  });
  afterAll(() => t.close());

  it('counts a sign-in route per /64', async () => {
    const at = newBlock();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${API}/auth/password-reset/`,
        payload: { email: uniqueEmail('v6rate') },
        remoteAddress: at(i),
      });
      statuses.push(res.statusCode);
    }
    expect(
      statuses.slice(0, 20).every((s) => s === 200),
      String(statuses),
    ).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});
