// Opens the database, runs migrations and closes it on shutdown. Everything else reads `app.db`.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Database, openDatabase } from '../db/database';
import { migrate } from '../db/migrate';
import type { CommitHooks } from '../db/commit-hooks';
import type { Db, Dialect } from '../db/schema';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    dialect: Dialect;
    /** News of committed transactions (db/commit-hooks.ts). */
    dbHooks: CommitHooks;
  }
}

export default fp(
  async function dbPlugin(app: FastifyInstance, opts: { database?: Database }) {
    const database =
      opts.database ??
      openDatabase({
        databaseUrl: app.config.databaseUrl,
        dataDir: app.config.dataDir,
        poolSize: app.config.databasePoolSize,
        checkpointThread: true,
        onCheckpointFailure: (err) =>
          app.log.warn({ err }, "SQLite's checkpoint thread stopped; SQLite checkpoints on the main connection alone"),
      });
    await migrate(database);
    app.decorate('db', database.db);
    app.decorate('dialect', database.dialect);
    app.decorate('dbHooks', database.hooks);
    // A database handed in by a caller (tests, CLI) is closed by that caller.
    if (!opts.database) app.addHook('onClose', () => database.close());
  },
  { name: 'db', dependencies: ['config'] },
);
