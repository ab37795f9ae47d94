// News a transaction announces for after its commit: the ledger's postings feed a metric that must
// not count a payment whose transaction rolled back. Kysely has no commit hook, so the database's
// driver is wrapped: it keeps the news per connection, hands it to the database's listeners after
// COMMIT succeeded and drops it on ROLLBACK. Listeners belong to one database handle (one app), so
// several apps in one process (tests) never hear each other's news.
import type { DatabaseConnection, Dialect, Driver, TransactionSettings } from 'kysely';
import type { Tx } from './schema';

/** A kind of news and the shape it has (`new Topic<Posting>('ledger posting')`). */
export class Topic<T> {
  declare private readonly shape: T;
  constructor(readonly name: string) {}
}

type Listener = (news: unknown) => void;

export interface CommitHooks {
  /** Calls `listener` with every committed piece of news of `topic`; returns the unsubscribe. */
  on<T>(topic: Topic<T>, listener: (news: T) => void): () => void;
}

class Hooks implements CommitHooks {
  readonly listeners = new Map<Topic<unknown>, Set<Listener>>();
  on<T>(topic: Topic<T>, listener: (news: T) => void) {
    const set = this.listeners.get(topic) ?? new Set();
    this.listeners.set(topic, set);
    set.add(listener as Listener);
    return () => void set.delete(listener as Listener);
  }
  tell(topic: Topic<unknown>, news: unknown) {
    for (const listener of this.listeners.get(topic) ?? []) {
      // Committed is committed: a failing listener (a metric) must not turn the caller's answer into a fault.
      try {
        listener(news);
      } catch (err) {
        process.emitWarning(`commit listener for "${topic.name}" failed: ${(err as Error).message}`);
      }
    }
  }
}

interface Pending {
  hooks: Hooks;
  news: { topic: Topic<unknown>; news: unknown }[];
}

/** Which hooks a connection belongs to, and the news its open transaction announced. */
const connections = new WeakMap<DatabaseConnection, Pending>();

function hookedDriver(inner: Driver, hooks: Hooks): Driver {
  const driver: Driver = {
    init: () => inner.init(),
    async acquireConnection() {
      const connection = await inner.acquireConnection();
      if (!connections.has(connection)) connections.set(connection, { hooks, news: [] });
      return connection;
    },
    async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
      connections.get(connection)!.news = [];
      await inner.beginTransaction(connection, settings);
    },
    async commitTransaction(connection: DatabaseConnection) {
      await inner.commitTransaction(connection);
      const pending = connections.get(connection)!;
      const news = pending.news;
      pending.news = [];
      for (const n of news) hooks.tell(n.topic, n.news);
    },
    async rollbackTransaction(connection: DatabaseConnection) {
      connections.get(connection)!.news = [];
      await inner.rollbackTransaction(connection);
    },
    releaseConnection: (connection) => inner.releaseConnection(connection),
    destroy: () => inner.destroy(),
  };
  // Savepoints pass through only where the dialect has them (Kysely checks for the methods). Nothing
  // here uses them; news announced before a rollback to a savepoint would still be told at commit.
  if (inner.savepoint) driver.savepoint = inner.savepoint.bind(inner);
  if (inner.rollbackToSavepoint) driver.rollbackToSavepoint = inner.rollbackToSavepoint.bind(inner);
  if (inner.releaseSavepoint) driver.releaseSavepoint = inner.releaseSavepoint.bind(inner);
  return driver;
}

/** The dialect with commit hooks, and the hooks to listen on. */
export function withCommitHooks(dialect: Dialect): { dialect: Dialect; hooks: CommitHooks } {
  const hooks = new Hooks();
  return {
    hooks,
    dialect: {
      createAdapter: () => dialect.createAdapter(),
      createDriver: () => hookedDriver(dialect.createDriver(), hooks),
      createQueryCompiler: () => dialect.createQueryCompiler(),
      createIntrospector: (db) => dialect.createIntrospector(db),
    },
  };
}

/**
 * Tells the database's listeners of `news` once `trx` has committed; a rollback drops it. Outside
 * a transaction the statement before it has committed already, so they hear it at once. A
 * database opened without hooks has no listeners: nothing happens.
 */
export async function announceAfterCommit<T>(trx: Tx, topic: Topic<T>, news: T): Promise<void> {
  // A transaction's executor always provides the transaction's own connection.
  const pending = await trx.getExecutor().provideConnection(async (connection) => connections.get(connection));
  if (!pending) return;
  if (trx.isTransaction) pending.news.push({ topic: topic as Topic<unknown>, news });
  else pending.hooks.tell(topic as Topic<unknown>, news);
}
