// The PostgreSQL restore drill of docs/operating.md (decisions §15): pg_dump -Fc of a live database
// and pg_restore into an empty one (scripts/pg-restore-drill.sh, the guide's commands) give back
// every player, every ledger posting and the generated secrets, and the server starts on the
// restored database and accepts a token signed before the backup. SQLite's backup: backup.test.ts.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { API, bearer, quickUser } from '../helpers/accounts';
import { ROOT } from '../helpers/server-process';
import { createPgDatabase, createTestApp, testDialects } from '../helpers/test-app';

const drill = (src: string, target: string, dump: string) =>
  new Promise<{ code: number; stderr: string }>((resolve) => {
    execFile(
      'bash',
      [join(ROOT, 'scripts/pg-restore-drill.sh'), src, target, dump],
      { timeout: 60_000 },
      (err, _out, stderr) => resolve({ code: err ? 1 : 0, stderr }),
    );
  });

describe.each(testDialects())('backup and restore drill on %s', (dialect) => {
  const dir = mkdtempSync(join(tmpdir(), 'pxt-drill-'));
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it.runIf(dialect === 'postgres')(
    'pg_dump -Fc / pg_restore gives back the players, their ledger and the secrets',
    async () => {
      const [source, target] = [await createPgDatabase(), await createPgDatabase()];
      drops.push(source.drop, target.drop);
      const live = await createTestApp(dialect, { DATABASE_URL: source.url });
      const { user, access } = await quickUser(live, { email: 'drill@example.com' });
      await live.app.inject({ method: 'GET', url: `${API}/auth/me/`, headers: bearer(access) });
      const count = async (db: typeof live.app.db, table: 'users' | 'ledger' | 'sessions') =>
        Number(
          (
            await db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = {
        users: await count(live.app.db, 'users'),
        ledger: await count(live.app.db, 'ledger'),
        sessions: await count(live.app.db, 'sessions'),
      };

      const run = await drill(source.url, target.url, join(dir, 'pxt.dump'));
      await live.close();
      expect(run.code, run.stderr).toBe(0);

      const restored = await createTestApp(dialect, { DATABASE_URL: target.url });
      try {
        expect({
          users: await count(restored.app.db, 'users'),
          ledger: await count(restored.app.db, 'ledger'),
          sessions: await count(restored.app.db, 'sessions'),
        }).toEqual(before);
        expect(before.users).toBeGreaterThan(0);
        const me = await restored.app.inject({ method: 'GET', url: `${API}/auth/me/`, headers: bearer(access) });
        expect(me.statusCode).toBe(200);
        expect(me.json()).toMatchObject({ email: 'drill@example.com' });
        expect(user.id).toBeGreaterThan(0);
      } finally {
        await restored.close();
      }
    },
    90_000,
  );
});
