// Compiled reads run straight on the SQLite handle, for the hot reads of db/prepared.ts. Kysely's
// way to a query on SQLite (connection provider, runtime driver, the single connection's mutex, result
// plugins) is a chain of a dozen promises per query; on /auth/me it cost about as much as the read
// itself (`npm run bench`). better-sqlite3 runs a query synchronously, so when nobody holds Kysely's
// one connection the read can run at once: no transaction is open on it then (a transaction holds
// the connection from before BEGIN until after COMMIT or ROLLBACK), so it reads what Kysely would.
// While the connection is held, the read takes Kysely's way and waits its turn as before.
import type { DatabaseConnection, Dialect, Driver, TransactionSettings } from 'kysely';
import type { Tx } from './schema';

/**
 * Rows of a read run now, or null when it must take Kysely's way (the connection is held, or the
 * statement writes). `oneRow`: the query yields at most one row, read without building a list.
 */
export type DirectRead = (sql: string, parameters: readonly unknown[], oneRow: boolean) => unknown[] | null;

const readers = new WeakMap<object, DirectRead>();

/** The direct reader of this database handle: none for PostgreSQL and for transactions. */
export function directReadOf(db: Tx): DirectRead | undefined {
  return readers.get(db);
}

export function registerDirectReads(db: Tx, read: DirectRead): void {
  readers.set(db, read);
}

/** The dialect with its connection's holding tracked: `idle()` is true when nobody holds it. */
export function trackingHeld(dialect: Dialect): { dialect: Dialect; idle: () => boolean } {
  let held = 0;
  const tracked = (inner: Driver): Driver => {
    const driver: Driver = {
      init: () => inner.init(),
      async acquireConnection() {
        const connection = await inner.acquireConnection();
        held++;
        return connection;
      },
      beginTransaction: (connection: DatabaseConnection, settings: TransactionSettings) =>
        inner.beginTransaction(connection, settings),
      commitTransaction: (connection) => inner.commitTransaction(connection),
      rollbackTransaction: (connection) => inner.rollbackTransaction(connection),
      async releaseConnection(connection) {
        held--;
        await inner.releaseConnection(connection);
      },
      destroy: () => inner.destroy(),
    };
    if (inner.savepoint) driver.savepoint = inner.savepoint.bind(inner);
    if (inner.rollbackToSavepoint) driver.rollbackToSavepoint = inner.rollbackToSavepoint.bind(inner);
    if (inner.releaseSavepoint) driver.releaseSavepoint = inner.releaseSavepoint.bind(inner);
    return driver;
  };
  return {
    idle: () => held === 0,
    dialect: {
      createAdapter: () => dialect.createAdapter(),
      createDriver: () => tracked(dialect.createDriver()),
      createQueryCompiler: () => dialect.createQueryCompiler(),
      createIntrospector: (db) => dialect.createIntrospector(db),
    },
  };
}
