// Request-rate counters (decisions §12): one row per limited key (a client address or a player, per
// class of call) with the count of its current window. Only the PostgreSQL store uses it, so that
// every process counts together; SQLite runs one process, which counts in memory. The table is
// created on both so the schema stays the same.
// On PostgreSQL it is UNLOGGED: counters that live a minute need no WAL, replicas or crash safety
// (after a crash the table is empty, which only forgives a minute of requests), and each hit is
// one write, so skipping the WAL is most of its cost.
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../schema';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  let table = db.schema.createTable('rate_limits');
  if (dialect === 'postgres') table = table.modifyFront(sql`unlogged`);
  await table
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  // Pruning finds ended windows by this index.
  await db.schema.createIndex('rate_limits_expires_idx').on('rate_limits').column('expires_at').execute();
}
