// The background worker looks up running Auto Miner periods every second (`expires_at > now`):
// without this index that read every subscription ever bought, and the claim scan went through
// every finished unclaimed session in the database (`npm run bench`: 24 ms a pass on SQLite with
// 300 k players who stopped coming). Now both start from the periods running.
import type { Kysely } from 'kysely';
import type { Dialect } from '../schema';

export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createIndex('auto_miner_subscriptions_expires_idx')
    .on('auto_miner_subscriptions')
    .column('expires_at')
    .execute();
}
