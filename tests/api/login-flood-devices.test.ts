// Issue 21: 60 failed sign-ins from 60 addresses, each within every limit, filled the one hash queue
// (2 running + 32 waiting) and answered every other player's correct sign-in 503 `busy`; five wrong
// passwords from anywhere locked the owner out for 15 minutes. With known devices (decisions §13)
// the owner, on a browser they signed in with before, is neither queued out nor locked out.
// Against the real server process at the DEFAULT scrypt cost; latencies printed, never asserted.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API, parseMail, PASSWORD, uniqueEmail } from '../helpers/accounts';
import { type Answer, callFrom, defaultCostEnv, latencyFigures } from '../helpers/raw-http';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';

const OWNER = '127.0.1.1';
const FLOODERS = Array.from({ length: 60 }, (_, i) => `127.0.2.${10 + i}`);

describe('a flood of failed sign-ins from 60 addresses against the real server (default scrypt cost)', () => {
  let server: ServerProcess | undefined;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'pxt-flood-'));
    server = await startServerProcess({ env: defaultCostEnv(join(dataDir, 'data')) });
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the owner on a known device signs in during the flood (never 503), and after their address is locked', async () => {
    const s = server!;
    const email = uniqueEmail('flood-owner');
    const reg = await callFrom(s, OWNER, 'POST', `${API}/auth/register/`, {
      email,
      password: PASSWORD,
      confirm_password: PASSWORD,
    });
    expect(reg.status, reg.body).toBe(201);
    const outbox = join(dataDir, 'data', 'outbox');
    const file = await vi.waitFor(
      () => {
        const found = readdirSync(outbox).find((f) => f.endsWith('.eml'));
        if (!found) throw new Error('no mail yet');
        return found;
      },
      { timeout: 10_000, interval: 50 },
    );
    const token = parseMail(readFileSync(join(outbox, file), 'utf8')).link.searchParams.get('token');
    const confirmed = await callFrom(s, OWNER, 'GET', `${API}/auth/confirm-email/${token}/`, undefined, {
      'x-registration': JSON.parse(reg.body).registration,
    });
    expect(confirmed.status, confirmed.body).toBe(200);
    const device = JSON.parse(confirmed.body).device as string;
    const signIn = (headers: Record<string, string> = {}) =>
      callFrom(s, OWNER, 'POST', `${API}/auth/login-by-email/`, { email, password: PASSWORD }, headers);

    const idle: number[] = [];
    for (let i = 0; i < 3; i++) {
      const a = await signIn({ 'x-device': device });
      expect(a.status, a.body).toBe(200);
      idle.push(a.ms);
    }

    // Each flooder sends one failed sign-in for an unknown address: within every per-client limit.
    let flooding = true;
    const flood = Promise.all(
      FLOODERS.map((ip) =>
        callFrom(s, ip, 'POST', `${API}/auth/login-by-email/`, { email: uniqueEmail('flood'), password: 'wrongpass1' }),
      ),
    ).finally(() => (flooding = false));
    const known: Answer[] = [];
    const unknown: Answer[] = [];
    const during = (async () => {
      // Give the flood a moment to fill the queue first.
      await new Promise((r) => setTimeout(r, 300));
      while (flooding && known.length < 3) {
        known.push(await signIn({ 'x-device': device }));
        if (flooding) unknown.push(await signIn());
      }
    })();
    const [results] = await Promise.all([flood, during]);
    const count = (status: number) => results.filter((r) => r.status === status).length;

    // Then five wrong passwords for the owner's address from elsewhere lock it.
    for (let i = 0; i < 5; i++)
      await callFrom(s, '127.0.3.1', 'POST', `${API}/auth/login-by-email/`, { email, password: `wrong${i}pass` });
    const locked = await signIn();
    const afterLock = await signIn({ 'x-device': device });

    console.log(
      [
        `flood of ${FLOODERS.length} failed sign-ins from ${FLOODERS.length} addresses (default scrypt cost):`,
        `  flood answers: ${count(400)} checked, ${count(503)} busy, ${count(429)} throttled`,
        `  owner, known device  idle: ${latencyFigures(idle)}; during the flood: ${latencyFigures(known.map((a) => a.ms))} [${known.map((a) => a.status).join(',')}]`,
        `  owner, no device     during the flood: [${unknown.map((a) => a.status).join(',')}]`,
        `  address locked: without the device ${locked.status}, with it ${afterLock.status} in ${Math.round(afterLock.ms)} ms`,
      ].join('\n'),
    );

    expect(count(503), 'the flood fills the queue as in the issue').toBeGreaterThan(0);
    expect(known.length).toBeGreaterThan(0);
    for (const a of known) expect(a.status, a.body).toBe(200);
    expect(locked.status).toBe(429);
    expect(afterLock.status, afterLock.body).toBe(200);
  }, 180_000);
});
