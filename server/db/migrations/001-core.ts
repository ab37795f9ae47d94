import { type Kysely, sql } from 'kysely';
import { withId } from '../columns';
import type { Dialect } from '../schema';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('users'), dialect)
    .addColumn('username', 'text')
    .addColumn('email', 'text', (c) => c.unique())
    .addColumn('email_confirmed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('password_hash', 'text')
    .addColumn('wallet_address', 'text', (c) => c.unique())
    .addColumn('google_sub', 'text', (c) => c.unique())
    .addColumn('balance', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('token', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('gems', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('referrer_id', 'bigint', (c) => c.references('users.id'))
    .addColumn('referral_code', 'text', (c) => c.notNull().unique())
    .addColumn('ico', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('language', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // Usernames are unique without regard to case ("Alice" and "alice" are one name).
  await db.schema
    .createIndex('users_username_lower_uq')
    .on('users')
    .unique()
    .expression(sql`lower(username)`)
    .execute();
  await db.schema.createIndex('users_referrer_idx').on('users').columns(['referrer_id', 'created_at']).execute();

  await withId(db.schema.createTable('ledger'), dialect)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('ref', 'text')
    .addColumn('unique_key', 'text', (c) => c.unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ledger_user_idx').on('ledger').columns(['user_id', 'currency']).execute();

  await withId(db.schema.createTable('refresh_tokens'), dialect)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('refresh_tokens_user_idx').on('refresh_tokens').column('user_id').execute();

  await withId(db.schema.createTable('action_tokens'), dialect)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('payload', 'text')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('action_tokens_user_idx').on('action_tokens').columns(['user_id', 'kind']).execute();

  // Keyed by the signed message and its signer rather than the signature bytes: an ECDSA signature
  // has a second valid form (s ↔ n−s), so the bytes alone would let a replay through.
  await db.schema
    .createTable('used_signatures')
    .addColumn('message_hash', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('used_signatures_created_idx').on('used_signatures').column('created_at').execute();

  await db.schema
    .createTable('throttle')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('route', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('body', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['scope', 'key'])
    .execute();
}
