import type { Kysely } from 'kysely';
import { withId } from '../columns';
import type { Dialect } from '../schema';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('beta_applications'), dialect)
    .addColumn('user_id', 'bigint', (c) => c.notNull().unique().references('users.id'))
    .addColumn('telegram', 'text', (c) => c.notNull())
    .addColumn('discord', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('wallet', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // Completed tasks and category rewards are read per player and reason from the ledger.
  await db.schema.createIndex('ledger_user_reason_idx').on('ledger').columns(['user_id', 'reason']).execute();
}
