// Another process writing the same SQLite file while the server runs (the operator's
// `npm run admin -- grant`, a second server started by mistake): the server's transactions take the
// write lock when they begin, so a commit of the other process between a transaction's first read and
// its first write cannot make SQLite refuse that write (SQLITE_BUSY_SNAPSHOT, which was a 500); and
// a lock held longer than the server waits (busy_timeout) is a 503 to retry, not a 500.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';
import { createUser } from '../../server/services/users';
import { ROOT } from '../helpers/server-process';
import { apiCall, createPlayer } from '../helpers/players';
import { createTestApp } from '../helpers/test-app';

const sqliteFile = (dataDir: string) => join(dataDir, 'pxt.sqlite');

/** A second process that commits a small write to `file` over and over, until told to stop (or 20 s). */
function otherWriter(file: string, userId: number) {
  const script = `
    const db = new (require('better-sqlite3'))(process.argv[1]);
    db.pragma('busy_timeout = 5000');
    const write = db.prepare('update users set username = ? where id = ?');
    let n = 0, stop = false;
    process.stdin.on('data', () => { stop = true; });
    process.stdin.on('end', () => { stop = true; });
    const until = Date.now() + 20000;
    (function loop() {
      for (let i = 0; i < 50; i++) write.run('bystander_' + (n++ % 2), ${userId});
      if (!stop && Date.now() < until) setImmediate(loop);
      else { process.stdout.write(String(n)); db.close(); }
    })();
    process.stdout.write('ready\\n');`;
  const child = spawn(process.execPath, ['-e', script, file], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const ready = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  const done = new Promise<number>((resolve) => child.on('exit', () => resolve(Number(out.split('\n')[1]))));
  return { ready, stop: () => (child.stdin.end(), done) };
}

describe('a second process writing the SQLite file', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('cannot make a transaction that read first fail its write', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pxt-second-writer-'));
    dirs.push(dataDir);
    const database = openDatabase({ databaseUrl: null, dataDir });
    await migrate(database);
    const a = await createUser(database.db, { username: 'reader_writer' });
    const b = await createUser(database.db, { username: 'bystander' });
    const other = new SQLite(sqliteFile(dataDir));
    other.pragma('busy_timeout = 0');
    const otherWrite = () => other.prepare('update users set gems = gems + 5 where id = ?').run(b.id);
    const refusedWhileOpen: string[] = [];
    try {
      await database.db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('users').select('gems').where('id', '=', a.id).executeTakeFirstOrThrow();
        // The other process tries to commit between this transaction's read and its write.
        try {
          otherWrite();
        } catch (err) {
          refusedWhileOpen.push((err as { code: string }).code);
        }
        await trx
          .updateTable('users')
          .set({ gems: Number(row.gems) + 1 })
          .where('id', '=', a.id)
          .execute();
      });
      // The transaction held the write lock from its start; once it committed, the other process writes.
      expect(refusedWhileOpen).toEqual(['SQLITE_BUSY']);
      otherWrite();
      const gems = (id: number) =>
        Number((other.prepare('select gems from users where id = ?').get(id) as { gems: number }).gems);
      expect([gems(a.id), gems(b.id)]).toEqual([1, 5]);
    } finally {
      other.close();
      await database.close();
    }
  });

  it('answers every call of players while another process commits writes, with no 5xx', async () => {
    const t = await createTestApp('sqlite');
    try {
      const players = await Promise.all(Array.from({ length: 60 }, () => createPlayer(t)));
      const bystander = await createPlayer(t);
      const writer = otherWriter(sqliteFile(t.dataDir), bystander.id);
      await writer.ready;
      const statuses: number[] = [];
      // Each start reads the player's open session and then inserts one: a read, then a write.
      for (const p of players) statuses.push((await apiCall(t, p, 'GET', '/mining/start/')).statusCode);
      const written = await writer.stop();
      expect(written).toBeGreaterThan(0);
      expect(statuses.filter((s) => s >= 500)).toEqual([]);
      expect(statuses.every((s) => s === 200)).toBe(true);
    } finally {
      await t.close();
    }
  }, 60_000);

  it('answers 503 with Retry-After when the other process holds the write lock longer than the server waits', async () => {
    const t = await createTestApp('sqlite');
    try {
      const player = await createPlayer(t);
      const other = new SQLite(sqliteFile(t.dataDir));
      other.exec('begin immediate');
      let res;
      try {
        res = await apiCall(t, player, 'GET', '/mining/start/');
      } finally {
        other.exec('rollback');
        other.close();
      }
      expect(res.statusCode, res.body).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json()).toMatchObject({ code: 'busy' });
      // Nothing was written: once the lock is free, the same call starts the session.
      expect((await apiCall(t, player, 'GET', '/mining/start/')).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  }, 30_000);
});
