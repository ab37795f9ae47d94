// Compiled statements run straight on the SQLite handle, for db/prepared.ts. Kysely's way to a
// query on SQLite (connection provider, runtime driver, the single connection's mutex, result plugins)
// is a chain of a dozen promises per query; on /auth/me it cost about as much as the read itself, and
// a claim's six statements spent more in it than in SQLite (`npm run bench`, issue 25).
// better-sqlite3 runs a statement synchronously, so it can run at once whenever Kysely would run it on
// the same connection with nothing before it:
//   - outside a transaction, when nobody holds Kysely's one connection (a transaction holds it from
//     before BEGIN until after COMMIT or ROLLBACK, so none is open then);
//   - inside a transaction, on its handle: the transaction holds the one connection, and its own
//     statements run one after another (Kysely's would wait for the one before; this one is done at once).
// While another holds the connection, the statement takes Kysely's way and waits its turn as before.
import type { DatabaseConnection, Dialect, Driver, TransactionSettings } from 'kysely';
import type { Tx } from './schema';

/** A statement's rows (its `returning` for a write) and how many rows a write changed. */
export interface DirectResult {
  rows: unknown[];
  changed: number;
}

/**
 * Runs a compiled statement now, or answers null when it must take Kysely's way. `oneRow`: a read
 * that yields at most one row, read without building a list; `inTransaction`: the handle it was
 * called on is a transaction (`db.isTransaction`).
 */
export type DirectRun = (
  sql: string,
  parameters: readonly unknown[],
  oneRow: boolean,
  inTransaction: boolean,
) => DirectResult | null;

// By the handle's adapter: a transaction shares it with its database handle.
const runners = new WeakMap<object, DirectRun>();

/** The direct runner of this handle (a database or one of its transactions): none for PostgreSQL. */
export function directRunOf(db: Tx): DirectRun | undefined {
  return runners.get(db.getExecutor().adapter);
}

/** Statements of this database handle (and its transactions) may run directly (SQLite only). */
export function registerDirectStatements(db: Tx, run: DirectRun): void {
  runners.set(db.getExecutor().adapter, run);
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
