// SQLite transactions take the write lock when they begin (BEGIN IMMEDIATE), not at their first
// write. The server's one connection never conflicts with itself, but another process on the same
// file (the operator's `npm run admin -- grant` while the server runs) can commit between a
// transaction's first read and its first write; SQLite then refuses that write at once, without
// waiting (SQLITE_BUSY_SNAPSHOT: the transaction's snapshot is stale), and the player got a 500.
// Taken at BEGIN, the lock is waited for (busy_timeout) like any other, and what the transaction
// reads is the latest. In one process it costs nothing: the connection runs one transaction at a time.
import { CompiledQuery, type DatabaseConnection, SqliteDialect, type SqliteDialectConfig, SqliteDriver } from 'kysely';

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver() {
    return new ImmediateSqliteDriver(this.#config);
  }
}

/** SQLite's "database is locked": another process held the write lock longer than busy_timeout. */
export const isSqliteBusy = (error: unknown) =>
  typeof (error as { code?: unknown })?.code === 'string' && /^SQLITE_BUSY(_|$)/.test((error as { code: string }).code);
