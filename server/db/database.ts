// Opens the database the configuration names: SQLite in DATA_DIR by default, PostgreSQL when
// DATABASE_URL is set. Both go through the same Kysely query code and migrations.
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DB, Db, Dialect } from './schema';

// bigint columns hold epoch-ms times and money in millionths: all within 2^53, so numbers are safe.
pg.types.setTypeParser(20, (v) => Number(v));

export interface Database {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
}

export function openDatabase(opts: { databaseUrl: string | null; dataDir: string; poolSize?: number }): Database {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
    // An idle client that loses its connection must not crash the process.
    pool.on('error', () => {});
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  const sqlite = new SQLite(join(opts.dataDir, 'pxt.sqlite'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
