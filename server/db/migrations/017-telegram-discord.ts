// Telegram and Discord (decisions §14):
// - `users.telegram_*`, `users.discord_*`: the linked accounts (one account per Telegram or Discord
//   id: unique), their display names and when they were added; `telegram_reminders`: the player's
//   on/off switch for the bot's claim reminders.
// - `telegram_chats`: who has started the bot (a reminder needs a chat the player opened), and who
//   blocked it (a 403 stops the messages until the next /start).
// - `telegram_auth_hashes`: every init-data or Login Widget `hash` accepted once, until it would
//   have expired anyway.
// - `bot_messages`: the bot's outbox. A reminder is written once per ended session (its unique key)
//   by the process that announced the session; any process sends it, holding it by `claimed_until`.
import { type Kysely, sql } from 'kysely';
import { withId } from '../columns';
import type { Dialect } from '../schema';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  for (const [column, type] of [
    ['telegram_id', 'text'],
    ['telegram_name', 'text'],
    ['telegram_added_at', 'bigint'],
    ['discord_id', 'text'],
    ['discord_name', 'text'],
    ['discord_added_at', 'bigint'],
  ] as const) {
    await db.schema.alterTable('users').addColumn(column, type).execute();
  }
  await db.schema
    .alterTable('users')
    .addColumn('telegram_reminders', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex('users_telegram_idx').on('users').column('telegram_id').unique().execute();
  await db.schema.createIndex('users_discord_idx').on('users').column('discord_id').unique().execute();

  await db.schema
    .createTable('telegram_chats')
    .addColumn('telegram_id', 'text', (c) => c.primaryKey())
    .addColumn('chat_id', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('blocked_at', 'bigint')
    .execute();

  await db.schema
    .createTable('telegram_auth_hashes')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('telegram_auth_hashes_expiry_idx')
    .on('telegram_auth_hashes')
    .column('expires_at')
    .execute();

  await withId(db.schema.createTable('bot_messages'), dialect)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('chat_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('unique_key', 'text', (c) => c.notNull().unique())
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('queued'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_at', 'bigint', (c) => c.notNull())
    .addColumn('claimed_until', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .addColumn('error', 'text')
    .execute();
  await db.schema
    .createIndex('bot_messages_due_idx')
    .on('bot_messages')
    .columns(['next_at'])
    .where(sql.ref('state'), '=', 'queued')
    .execute();
}
