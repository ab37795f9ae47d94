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
  token_hash: string;
  expires_at: number;
  revoked_at: number | null;
  created_at: number;
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
  action_tokens: ActionTokensTable;
  used_signatures: UsedSignaturesTable;
  throttle: ThrottleTable;
  rate_limits: RateLimitsTable;
  idempotency_keys: IdempotencyTable;
}
