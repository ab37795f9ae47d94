// Generated secrets shared by every process (decisions §15, issue 22). The shipped systemd unit
// runs each process with its own DATA_DIR: on PostgreSQL, secrets kept in DATA_DIR made every
// process sign with its own JWT key (a token from one was refused by the next) and hand out its own
// push key. On PostgreSQL they are kept in the database, generated once, atomically, so processes
// starting at once agree; on SQLite (one process, one DATA_DIR) they stay in DATA_DIR/secrets.json.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import webpush from 'web-push';
import { afterAll, describe, expect, it } from 'vitest';
import { API, bearer, quickUser } from '../helpers/accounts';
import { createPgDatabase, createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('generated secrets on %s', (dialect) => {
  const apps: TestApp[] = [];
  const dirs: string[] = [];
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const t of apps) await t.close();
    for (const drop of drops) await drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** Two processes as the systemd unit runs them: separate DATA_DIRs on PostgreSQL, one DATA_DIR on SQLite. */
  async function twoProcesses(env: Record<string, string> = {}): Promise<[TestApp, TestApp]> {
    let shared: Record<string, string>;
    if (dialect === 'postgres') {
      const pg = await createPgDatabase();
      drops.push(pg.drop);
      shared = { DATABASE_URL: pg.url };
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'pxt-kept-'));
      dirs.push(dir);
      shared = { DATA_DIR: dir };
    }
    // Started at once: both generate, one set wins, both use it.
    const pair = await Promise.all([
      createTestApp(dialect, { ...shared, ...env }),
      createTestApp(dialect, { ...shared, ...env }),
    ]);
    apps.push(...pair);
    return pair;
  }

  it('lets every process accept every other process’s tokens and hand out the same push key', async () => {
    const [a, b] = await twoProcesses();
    expect(a.app.config.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(b.app.config.jwtSecret).toBe(a.app.config.jwtSecret);
    expect(b.app.config.vapid).toEqual(a.app.config.vapid);
    const { access } = await quickUser(a);
    const me = await b.app.inject({ method: 'GET', url: `${API}/auth/me/`, headers: bearer(access) });
    expect(me.statusCode).toBe(200);
    const keys = await Promise.all(
      [a, b].map(async (t) => (await t.app.inject({ method: 'GET', url: `${API}/config/` })).json().vapid_public_key),
    );
    expect(keys[1]).toBe(keys[0]);
  });

  it('keeps a secret the environment gives and generates only the others', async () => {
    const [a, b] = await twoProcesses({ JWT_SECRET: 'given-'.repeat(8) });
    expect(a.app.config.jwtSecret).toBe('given-'.repeat(8));
    expect(b.app.config.vapid).toEqual(a.app.config.vapid);
  });

  it.runIf(dialect === 'postgres')(
    'on PostgreSQL, adopts the secrets an earlier version kept in DATA_DIR, so its tokens stay valid',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pxt-kept-old-'));
      dirs.push(dir);
      const old = { jwt: 'o'.repeat(64), vapid: JSON.stringify(webpush.generateVAPIDKeys()) };
      writeFileSync(join(dir, 'secrets.json'), JSON.stringify(old), { mode: 0o600 });
      const pg = await createPgDatabase();
      drops.push(pg.drop);
      const t = await createTestApp(dialect, { DATABASE_URL: pg.url, DATA_DIR: dir });
      apps.push(t);
      expect(t.app.config.jwtSecret).toBe(old.jwt);
      expect(t.app.config.vapid.publicKey).toBe(JSON.parse(old.vapid).publicKey);
    },
  );
});
