import { type Kysely, sql } from 'kysely';
import { withId } from '../columns';
import type { Dialect } from '../schema';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('mining_sessions'), dialect)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('ends_at', 'bigint', (c) => c.notNull())
    .addColumn('claimed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('claimed_at', 'bigint')
    .addColumn('task_boost_percent', 'integer', (c) => c.notNull())
    .addColumn('referral_boost_percent', 'integer', (c) => c.notNull())
    .addColumn('reward', 'bigint')
    .addColumn('auto', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ready_notified_at', 'bigint')
    .execute();
  // A player's session list, newest first.
  await db.schema
    .createIndex('mining_sessions_user_idx')
    .on('mining_sessions')
    .columns(['user_id', 'started_at'])
    .execute();
  // At most one unclaimed session per player: two racing starts cannot both insert.
  await db.schema
    .createIndex('mining_sessions_one_open_idx')
    .on('mining_sessions')
    .column('user_id')
    .unique()
    .where(sql.ref('claimed'), '=', 0)
    .execute();
  // The worker's scan of ended, unclaimed sessions.
  await db.schema
    .createIndex('mining_sessions_open_ends_idx')
    .on('mining_sessions')
    .column('ends_at')
    .where(sql.ref('claimed'), '=', 0)
    .execute();

  await withId(db.schema.createTable('temp_boosts'), dialect)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('duration_seconds', 'integer', (c) => c.notNull())
    .addColumn('value', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('selected_at', 'bigint')
    .addColumn('session_id', 'bigint', (c) => c.references('mining_sessions.id'))
    .addColumn('starts_at', 'bigint')
    .addColumn('ends_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('temp_boosts_user_idx').on('temp_boosts').columns(['user_id', 'state']).execute();
  await db.schema.createIndex('temp_boosts_session_idx').on('temp_boosts').column('session_id').execute();

  await withId(db.schema.createTable('rate_boosts'), dialect)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('percent', 'integer', (c) => c.notNull())
    .addColumn('task_title', 'text')
    .addColumn('referral_id', 'bigint', (c) => c.references('users.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // Once per task and once per referral (NULLs are distinct on both databases).
  await db.schema
    .createIndex('rate_boosts_task_uq')
    .on('rate_boosts')
    .columns(['user_id', 'task_title'])
    .unique()
    .execute();
  await db.schema
    .createIndex('rate_boosts_referral_uq')
    .on('rate_boosts')
    .columns(['user_id', 'referral_id'])
    .unique()
    .execute();

  await withId(db.schema.createTable('auto_miner_subscriptions'), dialect)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('price_gems', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('auto_miner_user_idx')
    .on('auto_miner_subscriptions')
    .columns(['user_id', 'expires_at'])
    .execute();

  await withId(db.schema.createTable('payment_orders'), dialect)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('gems', 'integer', (c) => c.notNull())
    .addColumn('price_cents', 'integer', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('checkout_url', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('paid_at', 'bigint')
    .execute();
  await db.schema.createIndex('payment_orders_user_idx').on('payment_orders').column('user_id').execute();
  await db.schema
    .createIndex('payment_orders_external_uq')
    .on('payment_orders')
    .columns(['provider', 'external_id'])
    .unique()
    .execute();
}
