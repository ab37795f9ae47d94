// TRUST_PROXY: a client behind our proxy cannot pick its own address by writing X-Forwarded-For.
// With TRUST_PROXY=1 the proxy (127.0.0.1 here) appends the address it saw; whatever the client
// wrote before it is ignored, so the per-IP sign-in limit holds however the client varies it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { LOGIN_FAILURES_PER_IP } from '../../server/services/throttle';
import { API, PASSWORD, registerAndConfirm, uniqueEmail } from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const PROXY = '127.0.0.1';

describe.each(testDialects())('client addresses behind a proxy on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { TRUST_PROXY: '1', RATE_LIMITS: 'off' });
  });
  afterAll(() => t?.close());

  /** A sign-in through our proxy: the client's own X-Forwarded-For, then the address the proxy saw. */
  const viaProxy = (client: string, claimed: string | null, email: string, password = 'wrongpass1') =>
    t.app.inject({
      method: 'POST',
      url: `${API}/auth/login-by-email/`,
      payload: { email, password },
      remoteAddress: PROXY,
      headers: { 'x-forwarded-for': claimed ? `${claimed}, ${client}` : client },
    });

  it('counts failed sign-ins against the address the proxy appended, not the one the client claims', async () => {
    const client = '203.0.113.7';
    for (let i = 0; i < LOGIN_FAILURES_PER_IP; i++) {
      expect((await viaProxy(client, `1.2.3.${i}`, uniqueEmail('spray'))).statusCode).toBe(400);
    }
    // The limit is reached for this client, whatever it claims to be next.
    const claimed = await viaProxy(client, '1.2.3.4', uniqueEmail('spray'));
    expect(claimed.statusCode).toBe(429);
    expect(claimed.json().code).toBe('throttled');
    expect((await viaProxy(client, null, uniqueEmail('spray'))).statusCode).toBe(429);
    // Another player behind the same proxy is not affected.
    const { email } = await registerAndConfirm(t);
    expect((await viaProxy('203.0.113.8', '1.2.3.4', email, PASSWORD)).statusCode).toBe(200);
  });
});

describe('TRUST_PROXY values', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'pxt-trust-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const load = (value: string) => loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, TRUST_PROXY: value });

  it('refuses "true", naming the hop count to use instead', () => {
    expect(() => load('true')).toThrow(/TRUST_PROXY=true is refused.*TRUST_PROXY=1/);
  });

  it('takes a hop count, or proxy addresses and CIDRs, and refuses anything else', () => {
    expect(load('1').trustProxy).toBe(1);
    expect(load('2').trustProxy).toBe(2);
    expect(load('false').trustProxy).toBe(false);
    expect(load('0').trustProxy).toBe(false);
    expect(load('10.0.0.5, 192.168.0.0/16,loopback, ::1').trustProxy).toEqual([
      '10.0.0.5',
      '192.168.0.0/16',
      'loopback',
      '::1',
    ]);
    expect(() => load('yes')).toThrow(/hop count/);
    expect(() => load('10.0.0.0/33')).toThrow(/hop count/);
  });

  // Issue 22: these trusted (nearly) every address or hop, i.e. behaved like the refused `true`;
  // 0.0.0.0/0 crashed with a stack trace from proxy-addr instead of a message.
  it('refuses ranges wider than /8 (IPv4) or /32 (IPv6) and hop counts above 5, as it refuses true', () => {
    for (const wide of [
      '0.0.0.0/1,128.0.0.0/1',
      '0.0.0.0/0',
      '10.0.0.0/7',
      '::/0',
      '2001:db8::/31',
      '10.0.0.5, ::ffff:0.0.0.0/96',
    ]) {
      expect(() => load(wide), wide).toThrow(/TRUST_PROXY=.* is refused: .*TRUST_PROXY=1 /);
    }
    for (const hops of ['6', '99'])
      expect(() => load(hops), hops).toThrow(/TRUST_PROXY=.* is refused: .*TRUST_PROXY=1 /);
    expect(load('5').trustProxy).toBe(5);
    expect(load('10.0.0.0/8, 2001:db8::/32').trustProxy).toEqual(['10.0.0.0/8', '2001:db8::/32']);
  });
});
