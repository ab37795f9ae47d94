// Idempotency keys bind to the call and its body (decisions §12): `request_hash` is an HMAC of the
// method, route, parameters and body, so the same key with another body is refused instead of
// answered with the first call's answer. Rows from before keep NULL and are matched on their route
// alone until they expire.
//
// Expired keys were never deleted; they are now pruned by `created_at` (the index), and the
// backlog of keys older than the 24-hour window goes here, once.
import type { Kysely } from 'kysely';
import { IDEMPOTENCY_WINDOW_MS } from '@shared/constants';
import type { Dialect } from '../schema';

export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('idempotency_keys').addColumn('request_hash', 'text').execute();
  await db.schema.createIndex('idempotency_keys_created_idx').on('idempotency_keys').column('created_at').execute();
  await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', Date.now() - IDEMPOTENCY_WINDOW_MS)
    .execute();
}
