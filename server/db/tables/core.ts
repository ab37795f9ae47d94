// Tables of accounts, money and request bookkeeping (migration 001).
import type { Generated } from 'kysely';

/** Times are epoch milliseconds in a bigint column on both databases; flags are 0/1 integers. */
export interface UsersTable {
  id: Generated<number>;
  username: string | null;
  /** `usernameKey(username)` (shared/validation.ts: the confusable skeleton), unique; NULL without a username or when an older look-alike holds it (migrations 008, 015). */
  username_key: string | null;
  email: string | null;
  email_confirmed: Generated<number>;
  password_hash: string | null;
  wallet_address: string | null;
  google_sub: string | null;
  balance: Generated<number>;
  token: Generated<number>; // PXT in millionths
  gems: Generated<number>;
  referrer_id: number | null;
  referral_code: string;
  /** When complete-registration first saved a username; NULL before (migration 011). */
  username_chosen_at: number | null;
  ico: Generated<number>;
  language: Generated<number>;
  created_at: number;
  /** 'en' or 'ru': the language of mails to the player (migration 014). */
  locale: Generated<string>;
  /** When each sign-in method was added; NULL while the account has none of that kind (migration 014). */
  password_added_at: number | null;
  wallet_added_at: number | null;
  google_added_at: number | null;
  /** The linked Telegram and Discord accounts (ids as text, unique), their names, when added (migration 017). */
  telegram_id: string | null;
  telegram_name: string | null;
  telegram_added_at: number | null;
  /** 1: the bot sends claim reminders (the /profile switch). */
  telegram_reminders: Generated<number>;
  discord_id: string | null;
  discord_name: string | null;
  discord_added_at: number | null;
  /** The Discord OAuth2 access token, encrypted (services/discord.ts), and when Discord expires it (migration 018). */
  discord_token: string | null;
  discord_token_expires_at: number | null;
  /** The generation of the account's known-device strings; raised to forget them all (migration 019). */
  device_epoch: Generated<number>;
}

export type Currency = 'balance' | 'token' | 'gems';

export interface LedgerTable {
  id: Generated<number>;
  user_id: number;
  currency: Currency;
  amount: number;
  reason: string;
  ref: string | null;
  /** Set for rewards that may be paid once: a second insert with the same key is refused. */
  unique_key: string | null;
  created_at: number;
}

export interface RefreshTokensTable {
  id: Generated<number>;
  user_id: number;
  /** The session this token renews; NULL for tokens from before migration 014. */
  session_id: number | null;
  token_hash: string;
  expires_at: number;
  revoked_at: number | null;
  created_at: number;
}

/** One sign-in (decisions §13): access tokens name it, and are refused once it has ended. */
export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  /** Browser and system from the user agent, e.g. "Chrome on Android". */
  device: string;
  /** The client address, coarsened (IPv4 /24, IPv6 /48). */
  address: string;
  created_at: number;
  last_used_at: number;
  ended_at: number | null;
}

export interface ActionTokensTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  token_hash: string;
  payload: string | null;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export interface UsedSignaturesTable {
  /** sha256 of signer address + signed text (see migration 001). */
  message_hash: string;
  created_at: number;
}

export interface ThrottleTable {
  key: string;
  count: number;
  window_start: number;
}

/** Request-rate counters shared by every process on PostgreSQL (migration 012, services/rate-limit-store.ts). */
export interface RateLimitsTable {
  key: string;
  count: number;
  /** Epoch ms at which the key's window ends. */
  expires_at: number;
}

/** Generated secrets shared by every process on PostgreSQL (migration 016, lib/kept-secrets-db.ts). */
export interface KeptSecretsTable {
  name: string;
  value: string;
}

export interface IdempotencyTable {
  scope: string;
  key: string;
  route: string;
  /** HMAC of method, route, parameters and body; NULL on rows kept before migration 009. */
  request_hash: string | null;
  status: number | null;
  body: string | null;
  created_at: number;
}

export interface CoreTables {
  users: UsersTable;
  ledger: LedgerTable;
  refresh_tokens: RefreshTokensTable;
  sessions: SessionsTable;
  action_tokens: ActionTokensTable;
  used_signatures: UsedSignaturesTable;
  throttle: ThrottleTable;
  rate_limits: RateLimitsTable;
  idempotency_keys: IdempotencyTable;
  kept_secrets: KeptSecretsTable;
}
