// SQLite's WAL checkpoints made mostly by a thread of their own (issue 25,
// server/db/sqlite-checkpointer.ts): the WAL is copied into the database file off the event loop
// (a checkpoint's copy and fsync on the server's connection stalled every call for 0.6-0.7 s in the
// bench's day of play), the WAL stays bounded under steady writes, and where the thread cannot run
// SQLite's own checkpoints go on as before.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { checkpointOffThread } from '../../server/db/sqlite-checkpointer';

const dirs: string[] = [];
const opened: SQLite.Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function walDatabase() {
  const dir = mkdtempSync(join(tmpdir(), 'pxt-ckpt-'));
  dirs.push(dir);
  const file = join(dir, 'db.sqlite');
  const db = new SQLite(file);
  opened.push(db);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('create table t (id integer primary key, body text not null)');
  return { db, file };
}

/** About `pages` pages of 4 KB into the WAL, in small commits as the server makes them. */
function write(db: SQLite.Database, pages: number) {
  const insert = db.prepare('insert into t (body) values (?)');
  for (let i = 0; i < pages; i++) insert.run('x'.repeat(4000));
}

describe('WAL checkpoints off the event loop', () => {
  it('the thread copies the WAL into the database file before SQLite would', async () => {
    const { db, file } = walDatabase();
    const checkpointer = checkpointOffThread(file, 50);
    const before = statSync(file).size;
    // 300 pages: under SQLite's own 1,000-page threshold, so without the thread the file never grows.
    write(db, 300);
    await expect.poll(() => statSync(file).size, { timeout: 10_000 }).toBeGreaterThan(before + 300 * 4000);
    await checkpointer.stop();
  });

  it('under steady writes the WAL stays bounded (SQLite restarts it from the beginning)', async () => {
    const { db, file } = walDatabase();
    const checkpointer = checkpointOffThread(file, 50);
    // 40 MB in commits of one row, yielding as a server does between requests.
    for (let round = 0; round < 100; round++) {
      write(db, 100);
      await new Promise((r) => setImmediate(r));
    }
    await checkpointer.stop();
    expect(statSync(`${file}-wal`).size).toBeLessThan(12 * 1024 * 1024);
    expect(db.prepare('select count(*) as n from t').get()).toEqual({ n: 10_000 });
  });

  it('SQLite does not checkpoint 300 pages by itself (what the test above rests on)', async () => {
    const { db, file } = walDatabase();
    const before = statSync(file).size;
    write(db, 300);
    await new Promise((r) => setTimeout(r, 300));
    expect(statSync(file).size).toBe(before);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });

  it('a thread that cannot open the database says why and leaves SQLite its own checkpoints', async () => {
    const { db, file } = walDatabase();
    const failures: unknown[] = [];
    const checkpointer = checkpointOffThread(join(tmpdir(), 'pxt-no-such-dir', 'db.sqlite'), 50, (e) =>
      failures.push(e),
    );
    await checkpointer.stop();
    // The caller hears why (the server logs it), rather than the thread going quiet.
    expect(failures).toHaveLength(1);
    expect(String(failures[0])).toMatch(/directory does not exist|unable to open|no such file/i);
    const before = statSync(file).size;
    write(db, 1100);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(statSync(file).size).toBeGreaterThan(before + 900 * 4000);
  });

  it("the server's database starts the thread and closes with it: the WAL is folded in and removed", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pxt-ckpt-'));
    dirs.push(dir);
    const database = openDatabase({ databaseUrl: null, dataDir: dir, checkpointThread: true });
    await sql`create table t (id integer primary key, body text not null)`.execute(database.db);
    for (let i = 0; i < 50; i++) await sql`insert into t (body) values (${'y'.repeat(4000)})`.execute(database.db);
    await database.close();
    const file = join(dir, 'pxt.sqlite');
    expect(existsSync(`${file}-wal`)).toBe(false);
    const check = new SQLite(file, { readonly: true });
    opened.push(check);
    expect(check.prepare('select count(*) as n from t').get()).toEqual({ n: 50 });
  });
});
