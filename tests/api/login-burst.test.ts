// The burst of issue 11, against the real server process at the DEFAULT scrypt cost (N=2^17,
// 128 MiB per hash) serving a static folder: one client address sends 60 failed sign-ins at once
// while another client keeps loading `/` and signs in with its right password. The attempt limit
// must hold (counted from the answers) and the other client must get its answers. Latencies are
// printed, idle and during the burst, never asserted (machines are noisy).
// Clients are told apart by their source address (127.0.0.2, 127.0.0.3: all of 127/8 is loopback
// on Linux), so the server needs no proxy setting to see two clients.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LOGIN_FAILURES_PER_IP } from '../../server/services/throttle';
import { API, parseMail, PASSWORD, uniqueEmail } from '../helpers/accounts';
import { type Answer, callFrom, defaultCostEnv, latencyFigures } from '../helpers/raw-http';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';

const FLOODER = '127.0.0.2';
const PLAYER = '127.0.0.3';
const BURST = 60;

describe('a burst of failed sign-ins against the real server (default scrypt cost)', () => {
  let server: ServerProcess | undefined;
  let dataDir: string;
  let staticDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'pxt-burst-'));
    staticDir = join(dataDir, 'static');
    mkdirSync(staticDir);
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>PXT</title><p>burst test</p>');
    server = await startServerProcess({ env: defaultCostEnv(join(dataDir, 'data'), staticDir) });
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`holds the limit over ${BURST} parallel failed sign-ins from one address; another client loads / and signs in`, async () => {
    const s = server!;
    // The other player: registered and confirmed through the mailed link, as a client would.
    const email = uniqueEmail('burst-player');
    const reg = await callFrom(s, PLAYER, 'POST', `${API}/auth/register/`, {
      email,
      password: PASSWORD,
      confirm_password: PASSWORD,
    });
    expect(reg.status, reg.body).toBe(201);
    const outbox = join(dataDir, 'data', 'outbox');
    // The server mails after it answers.
    const file = await vi.waitFor(
      () => {
        const found = readdirSync(outbox).find((f) => f.endsWith('.eml'));
        if (!found) throw new Error('no mail yet');
        return found;
      },
      { timeout: 10_000, interval: 50 },
    );
    const mail = parseMail(readFileSync(join(outbox, file), 'utf8'));
    // Opened in the registering browser (decisions §13): its registration string makes the typed password the account's.
    const confirmed = await callFrom(
      s,
      PLAYER,
      'GET',
      `${API}/auth/confirm-email/${mail.link.searchParams.get('token')}/`,
      undefined,
      {
        'x-registration': JSON.parse(reg.body).registration,
      },
    );
    expect(confirmed.status, confirmed.body).toBe(200);
    const signIn = () => callFrom(s, PLAYER, 'POST', `${API}/auth/login-by-email/`, { email, password: PASSWORD });

    // Idle figures.
    const idlePage: number[] = [];
    for (let i = 0; i < 10; i++) idlePage.push((await callFrom(s, PLAYER, 'GET', '/')).ms);
    const idleLogin: number[] = [];
    for (let i = 0; i < 3; i++) {
      const a = await signIn();
      expect(a.status, a.body).toBe(200);
      idleLogin.push(a.ms);
    }

    // The burst: distinct unknown addresses, so only the per-IP limit and the hash queue stand in the way.
    let flooding = true;
    const flood = Promise.all(
      Array.from({ length: BURST }, () =>
        callFrom(s, FLOODER, 'POST', `${API}/auth/login-by-email/`, {
          email: uniqueEmail('flood'),
          password: 'wrongpass1',
        }),
      ),
    ).finally(() => (flooding = false));
    const pages: Answer[] = [];
    const loadPages = (async () => {
      do pages.push(await callFrom(s, PLAYER, 'GET', '/'));
      while (flooding);
    })();
    const logins: Answer[] = [];
    const signInDuring = (async () => {
      do logins.push(await signIn());
      while (flooding && logins.length < 5);
    })();
    const [results] = await Promise.all([flood, loadPages, signInDuring]);

    const count = (status: number) => results.filter((r) => r.status === status).length;
    console.log(
      [
        `login burst (${BURST} failed sign-ins from ${FLOODER}, default scrypt cost):`,
        `  GET /           idle: ${latencyFigures(idlePage)}; during the burst: ${latencyFigures(pages.map((a) => a.ms))}`,
        `  other's login   idle: ${latencyFigures(idleLogin)}; during the burst: ${latencyFigures(logins.map((a) => a.ms))}`,
        `  burst answers: ${count(400)} checked (400), ${count(429)} throttled (429), ${count(503)} busy (503), others: ${
          results
            .filter((r) => ![400, 429, 503].includes(r.status))
            .map((r) => r.status)
            .join(',') || 'none'
        }; burst took ${Math.round(Math.max(...results.map((r) => r.ms)))} ms`,
      ].join('\n'),
    );

    // The limit held: at most LOGIN_FAILURES_PER_IP passwords were checked, the rest were refused.
    expect(results.every((r) => r.status === 400 || r.status === 429 || r.status === 503)).toBe(true);
    expect(count(400)).toBeLessThanOrEqual(LOGIN_FAILURES_PER_IP);
    expect(count(400) + count(429) + count(503)).toBe(BURST);
    for (const r of results.filter((x) => x.status !== 400))
      expect(JSON.parse(r.body).code).toMatch(/^(throttled|busy)$/);
    // The other client got its answers.
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.every((a) => a.status === 200 && a.body.includes('burst test'))).toBe(true);
    expect(logins.length).toBeGreaterThan(0);
    for (const a of logins) {
      expect(a.status, a.body).toBe(200);
      expect(JSON.parse(a.body)).toEqual({
        access: expect.any(String),
        refresh: expect.any(String),
        device: expect.any(String),
      });
    }
  }, 180_000);
});
