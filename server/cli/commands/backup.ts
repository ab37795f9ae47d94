// `backup <file>`: a consistent copy of the SQLite database while servers keep running (decisions
// §15), through SQLite's online backup API (better-sqlite3's db.backup()): it copies every page in
// one step under a read snapshot, so writes that land meanwhile are either wholly in the copy or
// not at all. The copy is written beside the target and renamed into place once checked
// (integrity_check), private to the operator (0600), and never over an existing file.
// PostgreSQL: pg_dump -Fc, as docs/operating.md "Backups and restore" describes.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { tightenMode } from '../../lib/private-files';
import { CliError, type Command, expectArgs } from '../context';

export const backupCommand: Command = {
  name: 'backup',
  usage: ['backup <file>'],
  summary:
    'write a consistent copy of the SQLite database to <file>, while the server runs (PostgreSQL: pg_dump, see docs/operating.md)',
  async run(ctx, args) {
    expectArgs(this, args, 1);
    if (ctx.config.databaseUrl) {
      throw new CliError(
        'backup copies the SQLite database; with DATABASE_URL use pg_dump -Fc as docs/operating.md "Backups and restore" describes',
      );
    }
    const source = join(ctx.config.dataDir, 'pxt.sqlite');
    const target = resolve(args[0]);
    if (!existsSync(source)) throw new CliError(`no database at ${source} (is DATA_DIR right?)`);
    if (existsSync(target)) throw new CliError(`${target} exists; name a new file`);
    const part = `${target}.part`;
    rmSync(part, { force: true });
    const db = new SQLite(source, { readonly: true, fileMustExist: true, timeout: 10_000 });
    try {
      // All remaining pages in each step: a copy of one moment, not restarted by every write.
      await db.backup(part, { progress: () => 0x7fffffff });
    } catch (err) {
      rmSync(part, { force: true });
      throw new CliError(`backup failed: ${(err as Error).message}`);
    } finally {
      db.close();
    }
    tightenMode(part, 0o600);
    const copy = new SQLite(part, { readonly: true });
    let check: unknown;
    let users: number;
    try {
      check = copy.pragma('integrity_check', { simple: true });
      users = (copy.prepare('select count(*) as n from users').get() as { n: number }).n;
    } finally {
      copy.close();
    }
    if (check !== 'ok') {
      rmSync(part, { force: true });
      throw new CliError(`the copy failed its integrity check (${String(check)}); nothing was written`);
    }
    renameSync(part, target);
    ctx.out(`${target}: a consistent copy of ${source} (${users} players, integrity ok)`);
    ctx.out(
      `Keep ${join(ctx.config.dataDir, 'secrets.json')} with it unless JWT_SECRET and the VAPID keys are set in the environment.`,
    );
  },
};
