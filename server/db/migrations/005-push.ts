import type { Kysely } from 'kysely';
import { withId } from '../columns';
import type { Dialect } from '../schema';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('push_subscriptions'), dialect)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    // Unique: one browser subscription belongs to the player who subscribed with it last.
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_success_at', 'bigint')
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('push_subscriptions_user_idx').on('push_subscriptions').column('user_id').execute();
}
