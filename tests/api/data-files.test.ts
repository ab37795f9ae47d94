// Data files are private to the server's user (the folder 0700, database, secrets and mails 0600),
// and processes starting together on one fresh DATA_DIR all end up with the same secrets.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, otherIp, PASSWORD, uniqueEmail } from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe.each(testDialects())('data files on %s', (dialect) => {
  let parent: string;
  let t: TestApp;
  let dataDir: string;
  beforeAll(async () => {
    parent = mkdtempSync(join(tmpdir(), 'pxt-files-'));
    // A folder the server creates itself (mkdtemp would already be 0700).
    dataDir = join(parent, 'data');
    t = await createTestApp(dialect, { DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(parent, { recursive: true, force: true });
  });

  it('keeps the data folder, database, secrets and outbox readable by the server only', async () => {
    // Writes the database and a mail.
    const reg = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/register/`,
      payload: { email: uniqueEmail('files'), password: PASSWORD, confirm_password: PASSWORD },
      remoteAddress: otherIp(),
    });
    expect(reg.statusCode, reg.body).toBeLessThan(300);
    expect(mode(dataDir)).toBe('700');
    // On PostgreSQL the generated secrets are kept in the database (kept-secrets.test.ts), not here.
    if (dialect === 'sqlite') expect(mode(join(dataDir, 'secrets.json'))).toBe('600');
    expect(mode(join(dataDir, 'outbox'))).toBe('700');
    const mails = readdirSync(join(dataDir, 'outbox'));
    expect(mails.length).toBeGreaterThan(0);
    for (const mail of mails) expect(mode(join(dataDir, 'outbox', mail))).toBe('600');
    if (dialect === 'sqlite') {
      for (const f of ['pxt.sqlite', 'pxt.sqlite-wal', 'pxt.sqlite-shm'])
        expect([f, mode(join(dataDir, f))]).toEqual([f, '600']);
    }
  });
});

describe('data files left by an earlier version', () => {
  it('are made private at start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pxt-old-files-'));
    try {
      chmodSync(dataDir, 0o755);
      writeFileSync(join(dataDir, 'pxt.sqlite'), '');
      chmodSync(join(dataDir, 'pxt.sqlite'), 0o644);
      mkdirSync(join(dataDir, 'outbox'), { mode: 0o755 });
      chmodSync(join(dataDir, 'outbox'), 0o755);
      writeFileSync(join(dataDir, 'secrets.json'), '{}');
      chmodSync(join(dataDir, 'secrets.json'), 0o644);
      const t = await createTestApp('sqlite', { DATA_DIR: dataDir });
      try {
        expect([
          mode(dataDir),
          mode(join(dataDir, 'pxt.sqlite')),
          mode(join(dataDir, 'outbox')),
          mode(join(dataDir, 'secrets.json')),
        ]).toEqual(['700', '600', '700', '600']);
      } finally {
        await t.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('processes starting together on one fresh DATA_DIR', () => {
  const CHILDREN = 6;
  const ROUNDS = 20;
  const children: { proc: ChildProcess; lines: AsyncIterator<string> }[] = [];
  let parent: string;

  beforeAll(async () => {
    parent = mkdtempSync(join(tmpdir(), 'pxt-race-'));
    const script = resolve(import.meta.dirname, '../helpers/load-config-child.ts');
    for (let i = 0; i < CHILDREN; i++) {
      const proc = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['pipe', 'pipe', 'inherit'] });
      children.push({ proc, lines: createInterface({ input: proc.stdout! })[Symbol.asyncIterator]() });
    }
    for (const c of children) expect((await c.lines.next()).value).toBe('ready');
  }, 120_000);
  afterAll(() => {
    for (const c of children) c.proc.kill();
    rmSync(parent, { recursive: true, force: true });
  });

  it('all end with the same JWT secret and VAPID keys', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const dataDir = join(parent, `round-${round}`, 'data');
      for (const c of children) c.proc.stdin!.write(`${dataDir}\n`);
      const seen = await Promise.all(
        children.map(
          async (c) => JSON.parse((await c.lines.next()).value as string) as { jwt: string; vapid: unknown },
        ),
      );
      const jwt = new Set(seen.map((s) => s.jwt));
      const vapid = new Set(seen.map((s) => JSON.stringify(s.vapid)));
      expect({ round, jwt: jwt.size, vapid: vapid.size }).toEqual({ round, jwt: 1, vapid: 1 });
    }
  }, 120_000);
});
