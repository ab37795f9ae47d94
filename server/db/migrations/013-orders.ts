// Orders of decisions §8 on the existing payment_orders table (its rows keep their data):
// - `quantity` (1–10 items in one order; `gems` and `price_cents` are the order's totals),
// - `updated_at`, `expires_at` (24 h after creation: an order unpaid by then expires),
// - `next_check_at` / `checked_at`: when the worker next asks the provider about the order, and
//   when anyone last did (a conditional update on it lets one process at a time ask),
// - `charge_amount` / `charge_currency`: what the provider was asked to take, in its own units and
//   currency (YooKassa: roubles at the rate of the day), so a later check compares with that,
// - `pay_to` (JSON, tether), `wallet_address` (the player's wallet when the order was made),
//   `tx_hash` (unique: a transaction pays one order only, ever), `confirmations`, `failure`.
// Existing rows: quantity 1, updated at their payment or creation, expiring 24 h after creation.
// Statuses gain created, expired and refunded; old pending rows stay pending for the worker.
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../schema';

const DAY_MS = 24 * 3600 * 1000;

export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  const add = (column: string, type: 'integer' | 'bigint' | 'text', notNullDefault?: number) =>
    db.schema
      .alterTable('payment_orders')
      .addColumn(column, type, (c) => (notNullDefault === undefined ? c : c.notNull().defaultTo(notNullDefault)))
      .execute();
  await add('quantity', 'integer', 1);
  await add('updated_at', 'bigint', 0);
  await add('expires_at', 'bigint', 0);
  await add('next_check_at', 'bigint');
  await add('checked_at', 'bigint');
  await add('charge_amount', 'text');
  await add('charge_currency', 'text');
  await add('pay_to', 'text');
  await add('wallet_address', 'text');
  await add('tx_hash', 'text');
  await add('confirmations', 'integer');
  await add('failure', 'text');
  await sql`UPDATE payment_orders SET updated_at = COALESCE(paid_at, created_at), expires_at = created_at + ${DAY_MS}`.execute(
    db,
  );
  await sql`UPDATE payment_orders SET next_check_at = created_at WHERE status = 'pending'`.execute(db);

  await db.schema
    .createIndex('payment_orders_tx_hash_uq')
    .on('payment_orders')
    .column('tx_hash')
    .unique()
    .where(sql.ref('tx_hash'), 'is not', null)
    .execute();
  // The worker's scan: open orders whose next look is due, oldest first.
  await db.schema
    .createIndex('payment_orders_next_check_idx')
    .on('payment_orders')
    .columns(['status', 'next_check_at'])
    .execute();
  // A player's order list, newest first (replaces the user_id index).
  await db.schema
    .createIndex('payment_orders_user_created_idx')
    .on('payment_orders')
    .columns(['user_id', 'id'])
    .execute();
  await db.schema.dropIndex('payment_orders_user_idx').execute();
}
