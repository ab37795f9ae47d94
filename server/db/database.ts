// Opens the database the configuration names: SQLite in DATA_DIR by default, PostgreSQL when
// DATABASE_URL is set. Both go through the same Kysely query code and migrations.
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import { tightenMode } from '../lib/private-files';
import { type CommitHooks, withCommitHooks } from './commit-hooks';
import { registerDirectStatements, trackingHeld } from './direct-statements';
import { withNamedStatements } from './named-statements';
import type { DB, Db, Dialect } from './schema';
import { type CheckpointFailure, checkpointOffThread } from './sqlite-checkpointer';
import { ImmediateSqliteDialect } from './sqlite-immediate';

// bigint columns hold epoch-ms times and money in millionths: all within 2^53, so numbers are safe.
pg.types.setTypeParser(20, (v) => Number(v));

export interface Database {
  db: Db;
  dialect: Dialect;
  /** News transactions announce, heard once they committed (the ledger's postings, for metrics). */
  hooks: CommitHooks;
  close(): Promise<void>;
}

/**
 * Kysely prepares every query anew, and on SQLite parsing the SQL costs more than running it
 * (`npm run bench`); this keeps the most recently used statements. Safe because Kysely runs one
 * query at a time on its single SQLite connection, so no cached statement is ever busy.
 */
function withStatementCache(
  sqlite: SQLite.Database,
  size = 500,
): { prepare(sql: string): SQLite.Statement } & SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (stmt) {
        cache.delete(sql); // move to the back: the front is the least recently used
      } else {
        stmt = sqlite.prepare(sql);
        if (cache.size >= size) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, stmt);
      return stmt;
    },
  };
}

export function openDatabase(opts: {
  databaseUrl: string | null;
  dataDir: string;
  poolSize?: number;
  /** SQLite: WAL checkpoints on a thread of their own (db/sqlite-checkpointer.ts), as the server runs. */
  checkpointThread?: boolean;
  /** Why that thread stopped, should it stop on its own. */
  onCheckpointFailure?: CheckpointFailure;
}): Database {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
    // An idle client that loses its connection must not crash the process.
    pool.on('error', () => {});
    pool.on('connect', withNamedStatements);
    const hooked = withCommitHooks(new PostgresDialect({ pool }));
    const db = new Kysely<DB>({ dialect: hooked.dialect });
    return { db, dialect: 'postgres', hooks: hooked.hooks, close: () => db.destroy() };
  }
  const file = join(opts.dataDir, 'pxt.sqlite');
  // Private to the server's user. SQLite creates the -wal and -shm files with the database file's
  // mode, so creating that file 0600 before SQLite does covers all three.
  closeSync(openSync(file, 'a', 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`]) tightenMode(f, 0o600);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const checkpointer = opts.checkpointThread ? checkpointOffThread(file, undefined, opts.onCheckpointFailure) : null;
  const statements = withStatementCache(sqlite);
  const held = trackingHeld(new ImmediateSqliteDialect({ database: statements }));
  const hooked = withCommitHooks(held.dialect);
  const db = new Kysely<DB>({ dialect: hooked.dialect });
  registerDirectStatements(db, (query, parameters, oneRow, inTransaction) => {
    // Inside a transaction it holds the connection; outside one, nobody may (db/direct-statements.ts).
    if (inTransaction === held.idle()) return null;
    const stmt = statements.prepare(query);
    if (!stmt.reader) return { rows: [], changed: stmt.run(parameters).changes };
    if (!oneRow) {
      const rows = stmt.all(parameters);
      return { rows, changed: rows.length };
    }
    // better-sqlite3's all() builds its list in C++ and steps once more to learn there is no
    // second row: get() cost about 0.7 µs less on /auth/me's read (timed in-process, issue 25).
    const row = stmt.get(parameters);
    return row === undefined ? { rows: [], changed: 0 } : { rows: [row], changed: 1 };
  });
  const close = async () => {
    await checkpointer?.stop();
    await db.destroy();
  };
  return { db, dialect: 'sqlite', hooks: hooked.hooks, close };
}
