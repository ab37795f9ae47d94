// The bot's state and outbox (migration 017). Times are epoch ms.
import type { Generated } from 'kysely';

/** A Telegram user who has started the bot: reminders go to `chat_id` unless the bot was blocked. */
export interface TelegramChatsTable {
  telegram_id: string;
  chat_id: string;
  started_at: number;
  /** Set by a 403 (the player blocked the bot); cleared by the next /start. */
  blocked_at: number | null;
}

/** Init-data and Login Widget hashes already accepted: each signs in once. */
export interface TelegramAuthHashesTable {
  hash: string;
  expires_at: number;
}

export type BotMessageState = 'queued' | 'sent' | 'failed';

/** One message the bot owes a player; `unique_key` makes each owed once (e.g. `ready:<session id>`). */
export interface BotMessagesTable {
  id: Generated<number>;
  user_id: number;
  chat_id: string;
  kind: string;
  unique_key: string;
  locale: string;
  state: Generated<BotMessageState>;
  attempts: Generated<number>;
  /** Not sent before (a 429's retry_after moves it). */
  next_at: number;
  /** A process sending it holds it until then; after, another may take it over. */
  claimed_until: number | null;
  created_at: number;
  sent_at: number | null;
  error: string | null;
}

export interface TelegramTables {
  telegram_chats: TelegramChatsTable;
  telegram_auth_hashes: TelegramAuthHashesTable;
  bot_messages: BotMessagesTable;
}
