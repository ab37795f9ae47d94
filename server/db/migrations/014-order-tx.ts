// A transaction pays one order only, ever (decisions §8, tether): the hash a player submits for a
// tether order is kept in its own column under a unique index, across every provider and status,
// so neither a second order nor a race between two submissions can claim the same payment. NULLs
// (orders of other methods, or no hash yet) never collide.
import type { Kysely } from 'kysely';
import type { Dialect } from '../schema';

export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('payment_orders').addColumn('tx_hash', 'text').execute();
  await db.schema.createIndex('payment_orders_tx_hash_uq').on('payment_orders').column('tx_hash').unique().execute();
}
