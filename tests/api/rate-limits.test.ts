// Request-rate limits at the edge (plugins/rate-limits.ts, decisions §12): floods of anonymous
// sign-in calls and unknown routes are refused with 429 `rate_limited` and Retry-After before they
// cost anything; a signed-in player's limit follows the player; RATE_LIMITS=off lifts them all;
// on PostgreSQL every process counts in one table (rate-limits-shared.test.ts).
// Windows are one minute from a key's first hit: each flood below takes a few seconds.
import { openSession } from '../../server/services/sessions';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS_PER_MINUTE as LIMITS } from '../../server/plugins/rate-limits';
import { issueRefreshToken } from '../../server/services/refresh-tokens';
import { hitRateLimit, pruneRateLimits } from '../../server/services/rate-limit-store';
import { API, bearer, otherIp, quickUser, uniqueEmail } from '../helpers/accounts';
import { expectRateLimited, flood, RATE_LIMITS_ON as ON, statuses } from '../helpers/rate-limit-answers';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const CLIENT_ID = 'pxt-test-client.apps.googleusercontent.com';

describe.each(testDialects())('request-rate limits on %s', (dialect) => {
  let google: Server;
  let googleCalls = 0;
  let googleEnv: Record<string, string>;
  let t: TestApp;

  beforeAll(async () => {
    // Google's stand-in: every token is for our app, but no token is a valid sign-in (a flood of junk).
    google = createServer((req, res) => {
      googleCalls++;
      if (req.url?.startsWith('/tokeninfo'))
        return res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ aud: CLIENT_ID, azp: CLIENT_ID }));
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_token"}');
    });
    await new Promise<void>((resolve) => google.listen(0, '127.0.0.1', resolve));
    const port = (google.address() as AddressInfo).port;
    googleEnv = {
      GOOGLE_CLIENT_ID: CLIENT_ID,
      GOOGLE_USERINFO_URL: `http://127.0.0.1:${port}/v1/userinfo`,
      GOOGLE_TOKENINFO_URL: `http://127.0.0.1:${port}/tokeninfo`,
    };
    t = await createTestApp(dialect, { ...ON, ...googleEnv });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => google.close(resolve));
  });

  it('refuses an anonymous flood of Google sign-ins before Google is called more than the limit allows', async () => {
    const ip = otherIp();
    googleCalls = 0;
    const answers = await flood(t.app, 3 * LIMITS.google, (i) => ({
      method: 'POST',
      url: `${API}/auth/google/`,
      payload: { access_token: `ya29.junk-${i}` },
      remoteAddress: ip,
    }));
    // Each allowed attempt asked Google twice (audience, then profile) and was refused as a bad token.
    expect(statuses(answers.slice(0, LIMITS.google))).toEqual(Array(LIMITS.google).fill(400));
    for (const res of answers.slice(LIMITS.google)) expectRateLimited(res);
    expect(googleCalls).toBe(2 * LIMITS.google);

    // Another address is not affected.
    googleCalls = 0;
    const other = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/google/`,
      payload: { access_token: 'ya29.junk-x' },
      remoteAddress: otherIp(),
    });
    expect(other.statusCode).toBe(400);
    expect(googleCalls).toBe(2);
  });

  it('refuses a flood of /auth/refresh/ from one address, a valid refresh token included, before looking it up', async () => {
    const ip = otherIp();
    const answers = await flood(t.app, LIMITS.refresh + 5, (i) => ({
      method: 'POST',
      url: `${API}/auth/refresh/`,
      payload: { refresh: `guess-${i}` },
      remoteAddress: ip,
    }));
    expect(statuses(answers.slice(0, LIMITS.refresh))).toEqual(Array(LIMITS.refresh).fill(401));
    for (const res of answers.slice(LIMITS.refresh)) expectRateLimited(res);

    const { user } = await quickUser(t);
    const refresh = await issueRefreshToken(
      t.app.db,
      user.id,
      await openSession(t.app.db, user.id, { userAgent: 'test', ip: '127.0.0.1' }),
    );
    expectRateLimited(
      await t.app.inject({ method: 'POST', url: `${API}/auth/refresh/`, payload: { refresh }, remoteAddress: ip }),
    );
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/refresh/`,
      payload: { refresh },
      remoteAddress: otherIp(),
    });
    expect(elsewhere.statusCode).toBe(200);
    expect(elsewhere.json()).toHaveProperty('access');
  });

  it('limits every other sign-in and token-link call per address and route, before validation or the database', async () => {
    const calls: InjectOptions[] = [
      { method: 'POST', url: `${API}/auth/login/`, payload: { address: '0x0', timestamp: 0, signature: '0x' } },
      { method: 'POST', url: `${API}/auth/register/`, payload: { email: 'not-an-address' } },
      { method: 'POST', url: `${API}/auth/login-by-email/`, payload: {} },
      { method: 'POST', url: `${API}/auth/password-reset/`, payload: {} },
      { method: 'POST', url: `${API}/auth/password-reset-confirm/`, payload: {} },
      { method: 'GET', url: `${API}/auth/confirm-email/${'x'.repeat(43)}/` },
      { method: 'POST', url: `${API}/auth/undo-email-change/`, payload: {} },
    ];
    const ip = otherIp();
    for (const call of calls) {
      const answers = await flood(t.app, LIMITS.signIn + 1, () => ({ ...call, remoteAddress: ip }));
      for (const res of answers.slice(0, LIMITS.signIn))
        expect(res.statusCode, `${call.url}: ${JSON.stringify(res.json())}`).not.toBe(429);
      expectRateLimited(answers[LIMITS.signIn]);
    }
  });

  it('follows a signed-in player across addresses, and leaves other players and addresses alone', async () => {
    const { access } = await quickUser(t);
    const answers = await flood(t.app, LIMITS.player, () => ({
      method: 'GET',
      url: `${API}/auth/me`,
      headers: bearer(access),
      remoteAddress: otherIp(),
    }));
    expect(statuses(answers)).toEqual(Array(LIMITS.player).fill(200));
    const ip = otherIp();
    expectRateLimited(
      await t.app.inject({ method: 'GET', url: `${API}/auth/me`, headers: bearer(access), remoteAddress: ip }),
    );

    // The same address, another player or nobody signed in: counted apart.
    const other = await quickUser(t);
    expect(
      (await t.app.inject({ method: 'GET', url: `${API}/auth/me`, headers: bearer(other.access), remoteAddress: ip }))
        .statusCode,
    ).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `${API}/config/`, remoteAddress: ip })).statusCode).toBe(200);
    // A forged token counts against the address, not against a player.
    expect(
      (await t.app.inject({ method: 'GET', url: `${API}/auth/me`, headers: bearer(`${access}x`), remoteAddress: ip }))
        .statusCode,
    ).toBe(401);
  });

  it('limits anonymous API calls per address, IPv6 per /64', async () => {
    const answers = await flood(t.app, LIMITS.address, (i) => ({
      method: 'GET',
      url: `${API}/config/`,
      remoteAddress: `2001:db8:77::${(i + 1).toString(16)}`,
    }));
    expect(statuses(answers)).toEqual(Array(LIMITS.address).fill(200));
    expectRateLimited(
      await t.app.inject({ method: 'GET', url: `${API}/config/`, remoteAddress: '2001:db8:77:0:ffff::1' }),
    );
    expect(
      (await t.app.inject({ method: 'GET', url: `${API}/config/`, remoteAddress: '2001:db8:78::1' })).statusCode,
    ).toBe(200);
  });

  it('limits unknown routes tighter than known ones, and not the probes', async () => {
    const ip = otherIp();
    const answers = await flood(t.app, LIMITS.notFound, (i) => ({
      method: i % 2 ? 'POST' : 'GET',
      url: `/wp-admin/${i}.php`,
      remoteAddress: ip,
    }));
    expect(statuses(answers)).toEqual(Array(LIMITS.notFound).fill(404));
    expectRateLimited(await t.app.inject({ method: 'GET', url: `${API}/no-such-route/`, remoteAddress: ip }));
    // Known routes from the scanner's address still answer, and the probes never count.
    expect((await t.app.inject({ method: 'GET', url: `${API}/config/`, remoteAddress: ip })).statusCode).toBe(200);
    const probes = await flood(t.app, LIMITS.address + 10, (i) => ({
      method: 'GET',
      url: i % 2 ? '/healthz' : '/readyz',
      remoteAddress: ip,
    }));
    expect(statuses(probes)).toEqual(Array(LIMITS.address + 10).fill(200));
    expect(LIMITS.notFound).toBeLessThan(LIMITS.address);
  });

  it('RATE_LIMITS=off lifts them; the sign-in attempt limits stay on', async () => {
    googleCalls = 0;
    const off = await createTestApp(dialect, { RATE_LIMITS: 'off', ...googleEnv });
    try {
      const ip = otherIp();
      const answers = [
        ...(await flood(off.app, 2 * LIMITS.google, (i) => ({
          method: 'POST',
          url: `${API}/auth/google/`,
          payload: { access_token: `ya29.off-${i}` },
          remoteAddress: ip,
        }))),
        ...(await flood(off.app, 2 * LIMITS.notFound, (i) => ({
          method: 'GET',
          url: `/nothing/${i}`,
          remoteAddress: ip,
        }))),
      ];
      expect(answers.filter((a) => a.statusCode === 429)).toEqual([]);
      expect(googleCalls).toBe(4 * LIMITS.google);

      // Five wrong passwords for one address, then the sixth attempt is refused as before.
      const email = uniqueEmail('throttled');
      const attempts = await flood(off.app, 6, () => ({
        method: 'POST',
        url: `${API}/auth/login-by-email/`,
        payload: { email, password: 'wrong-password' },
        remoteAddress: ip,
      }));
      expect(attempts[5].statusCode).toBe(429);
      expect(attempts[5].json()).toMatchObject({ code: 'throttled' });
    } finally {
      await off.close();
    }
  });

  it('counts the app files per address, generously, and never the hashed assets', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'pxt-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(join(dist, 'sw.js'), '// worker');
    writeFileSync(join(dist, 'assets', 'index-3f2a1b.js'), 'console.log(1)');
    // A twentieth of every limit keeps the flood short: static files 60, unknown routes 1.
    const small = await createTestApp(dialect, { ...ON, RATE_LIMIT_FACTOR: '0.05', STATIC_DIR: dist });
    try {
      const ip = otherIp();
      const staticMax = Math.floor(LIMITS.staticFiles * 0.05);
      const assets = await flood(small.app, staticMax + 10, () => ({
        method: 'GET',
        url: '/assets/index-3f2a1b.js',
        remoteAddress: ip,
      }));
      expect(statuses(assets)).toEqual(Array(staticMax + 10).fill(200));
      const files = await flood(small.app, staticMax, (i) => ({
        method: 'GET',
        url: ['/', '/sw.js', '/miner', '/referrals'][i % 4],
        remoteAddress: ip,
      }));
      expect(statuses(files)).toEqual(Array(staticMax).fill(200));
      expectRateLimited(await small.app.inject({ method: 'GET', url: '/sw.js', remoteAddress: ip }));

      // A missing file is an unknown route, also under /assets/.
      const scanner = otherIp();
      expect(
        (await small.app.inject({ method: 'GET', url: '/assets/missing.js', remoteAddress: scanner })).statusCode,
      ).toBe(404);
      expectRateLimited(await small.app.inject({ method: 'GET', url: '/.env', remoteAddress: scanner }));
    } finally {
      await small.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it('counts the address the proxy appended with TRUST_PROXY=1, and warns once when a proxy seems to be in front without it', async () => {
    const proxied = await createTestApp(dialect, { ...ON, TRUST_PROXY: '1' });
    const lines: string[] = [];
    const direct = await createTestApp(dialect, { ...ON, LOG_LEVEL: 'warn' }, undefined, {
      logStream: { write: (line) => lines.push(line) },
    });
    try {
      // One client behind the proxy varies what it writes in X-Forwarded-For: still one count.
      const answers = await flood(proxied.app, LIMITS.notFound, (i) => ({
        method: 'GET',
        url: '/nothing',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.9` },
      }));
      expect(statuses(answers)).toEqual(Array(LIMITS.notFound).fill(404));
      expectRateLimited(
        await proxied.app.inject({
          method: 'GET',
          url: '/nothing',
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': '203.0.113.9' },
        }),
      );
      // Another client behind the same proxy has its own count.
      expect(
        (
          await proxied.app.inject({
            method: 'GET',
            url: '/nothing',
            remoteAddress: '127.0.0.1',
            headers: { 'x-forwarded-for': '203.0.113.10' },
          })
        ).statusCode,
      ).toBe(404);

      for (let i = 0; i < 3; i++)
        await direct.app.inject({
          method: 'GET',
          url: `${API}/config/`,
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': '203.0.113.9' },
        });
      expect(lines.filter((l) => l.includes('TRUST_PROXY is not set'))).toHaveLength(1);
    } finally {
      await proxied.close();
      await direct.close();
    }
  });

  it('keeps one counter per key: a window restarts once it has ended, and ended windows are pruned', async () => {
    const db = t.app.db;
    const start = 1_000_000_000_000;
    expect(await hitRateLimit(db, 'test:a', 60_000, start)).toEqual({ current: 1, ttl: 60_000 });
    expect(await hitRateLimit(db, 'test:a', 60_000, start + 59_000)).toEqual({ current: 2, ttl: 1000 });
    expect(await hitRateLimit(db, 'test:a', 60_000, start + 60_000)).toEqual({ current: 1, ttl: 60_000 });
    await hitRateLimit(db, 'test:b', 60_000, start);
    expect(await pruneRateLimits(db, start + 90_000)).toBeGreaterThanOrEqual(1);
    const left = await db.selectFrom('rate_limits').select('key').where('key', 'like', 'test:%').execute();
    expect(left.map((r) => r.key)).toEqual(['test:a']);
    await pruneRateLimits(db, start + 120_001);
    expect(await db.selectFrom('rate_limits').select('key').where('key', 'like', 'test:%').execute()).toEqual([]);
  });
});
