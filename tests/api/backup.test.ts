// `npm run admin -- backup <file>` (decisions §15): a consistent copy of the SQLite database while
// the server writes to it (SQLite's online backup API), checked by opening the copy; on PostgreSQL
// it refuses and points to the operating guide's pg_dump procedure (tested in pg-restore.test.ts).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';
import { createUser } from '../../server/services/users';
import { ROOT } from '../helpers/server-process';
import { createPgDatabase, testDialects } from '../helpers/test-app';

function admin(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'server/cli/admin.ts', ...args],
      { cwd: ROOT, env: { ...process.env, NODE_ENV: 'test', ...env }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe.each(testDialects())('admin backup on %s', (dialect) => {
  const dir = mkdtempSync(join(tmpdir(), 'pxt-backup-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.runIf(dialect === 'sqlite')(
    'copies the live database while writes go on, and the copy opens whole',
    async () => {
      const dataDir = join(dir, 'data');
      mkdirSync(dataDir, { mode: 0o700 });
      const database = openDatabase({ databaseUrl: null, dataDir });
      await migrate(database);
      for (let i = 0; i < 200; i++) await createUser(database.db, { email: `before-${i}@example.com` });
      // The server goes on writing while the backup runs.
      let writing = true;
      let written = 0;
      const writer = (async () => {
        while (writing) {
          await createUser(database.db, { email: `during-${written++}@example.com` });
          await new Promise((r) => setImmediate(r));
        }
      })();
      const file = join(dir, 'copy.sqlite');
      const run = await admin(['backup', file], { DATA_DIR: dataDir });
      writing = false;
      await writer;
      await database.close();
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/copy\.sqlite/);
      expect(written).toBeGreaterThan(0);
      expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
      const copy = new SQLite(file, { readonly: true });
      try {
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        const users = copy.prepare('select count(*) as n from users').get() as { n: number };
        expect(users.n).toBeGreaterThanOrEqual(200);
        expect(users.n).toBeLessThanOrEqual(200 + written);
        const before = copy.prepare("select count(*) as n from users where email like 'before-%'").get() as {
          n: number;
        };
        expect(before.n).toBe(200);
      } finally {
        copy.close();
      }
      // An existing file is never overwritten.
      const again = await admin(['backup', file], { DATA_DIR: dataDir });
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/exists/);
    },
    90_000,
  );

  it.runIf(dialect === 'postgres')(
    'refuses on PostgreSQL and points to the pg_dump procedure',
    async () => {
      const pg = await createPgDatabase();
      try {
        const file = join(dir, 'pg-copy');
        const run = await admin(['backup', file], { DATA_DIR: join(dir, 'pgdata'), DATABASE_URL: pg.url });
        expect(run.code).toBe(1);
        expect(run.stderr).toMatch(/pg_dump.*docs\/operating\.md/);
        expect(existsSync(file)).toBe(false);
      } finally {
        await pg.drop();
      }
    },
    60_000,
  );
});
