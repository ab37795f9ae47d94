// Tables of mining, boosts, the Auto Miner and Gem orders (migration 002). Times are epoch ms.
import type { Generated } from 'kysely';

export interface MiningSessionsTable {
  id: Generated<number>;
  user_id: number;
  started_at: number;
  ends_at: number;
  /** 0 while running or waiting to be claimed; at most one such row per user (partial unique index). */
  claimed: Generated<number>;
  claimed_at: number | null;
  /** Rate boosts fixed when the session starts (referral part already capped). */
  task_boost_percent: number;
  referral_boost_percent: number;
  /** PXT millionths, fixed at claim; null until then. */
  reward: number | null;
  /** 1 when the Auto Miner started it. */
  auto: Generated<number>;
  /** When the "ready to claim" listeners (reminders) were told; null until then. */
  ready_notified_at: number | null;
}

export type TempBoostState = 'owned' | 'selected' | 'applied' | 'expired';
export type TempBoostSource = 'welcome' | 'shop' | 'season' | 'admin';

export interface TempBoostsTable {
  id: Generated<number>;
  user_id: number;
  duration_seconds: number;
  /** Rate multiplier while it runs (2 = double). */
  value: number;
  state: TempBoostState;
  source: TempBoostSource;
  /** Set when selected; selected boosts are applied in this order at the next start. */
  selected_at: number | null;
  /** Set when applied: the session and the part of the boost inside it (ends_at clipped to the session end). */
  session_id: number | null;
  starts_at: number | null;
  ends_at: number | null;
  created_at: number;
}

export type RateBoostKind = 'task' | 'referral';

/** Permanent rate boosts: one per completed task (by server title) and one per referral. */
export interface RateBoostsTable {
  id: Generated<number>;
  user_id: number;
  kind: RateBoostKind;
  percent: number;
  task_title: string | null;
  referral_id: number | null;
  created_at: number;
}

export interface AutoMinerSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  price_gems: number;
  started_at: number;
  expires_at: number;
  created_at: number;
}

/** decisions §8: created → pending → paid | failed | expired | refunded (migration 013). */
export type PaymentOrderStatus = 'created' | 'pending' | 'paid' | 'failed' | 'expired' | 'refunded';

export interface PaymentOrdersTable {
  id: Generated<number>;
  user_id: number;
  item_id: string;
  /** Items in the order (1–10); gems and price_cents are the order's totals. */
  quantity: Generated<number>;
  gems: number;
  /** The order's amount in US cents. */
  price_cents: number;
  method: string;
  /** The provider that serves the order ('test', 'yookassa', 'stripe', 'usdt'). */
  provider: string;
  status: PaymentOrderStatus;
  /** The provider's own id for the payment, once it has one. */
  external_id: string | null;
  checkout_url: string | null;
  created_at: number;
  updated_at: number;
  paid_at: number | null;
  /** Unpaid by then, the order expires (24 h after creation). */
  expires_at: number;
  /** When the worker looks at the order next (null once it is final). */
  next_check_at: number | null;
  /** When anyone last asked the provider about it. */
  checked_at: number | null;
  /** What the provider was asked to take, in its units and currency (e.g. "449.10" RUB). */
  charge_amount: string | null;
  charge_currency: string | null;
  /** JSON of the tether `pay_to`. */
  pay_to: string | null;
  /** The player's linked wallet when the order was made (tether pays from it). */
  wallet_address: string | null;
  /** The transaction that paid a tether order; unique: one transaction pays one order, ever. */
  tx_hash: string | null;
  confirmations: number | null;
  /** Why the order failed (a code), or null. */
  failure: string | null;
}

export interface MiningTables {
  mining_sessions: MiningSessionsTable;
  temp_boosts: TempBoostsTable;
  rate_boosts: RateBoostsTable;
  auto_miner_subscriptions: AutoMinerSubscriptionsTable;
  payment_orders: PaymentOrdersTable;
}
