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

export type PaymentOrderStatus = 'pending' | 'paid' | 'failed';

export interface PaymentOrdersTable {
  id: Generated<number>;
  user_id: number;
  item_id: string;
  gems: number;
  /** Price in US cents. */
  price_cents: number;
  method: string;
  provider: string;
  status: PaymentOrderStatus;
  /** The provider's own id for the payment, once it has one. */
  external_id: string | null;
  checkout_url: string | null;
  /** Tether: the submitted transaction's hash (lower case), unique across all orders (migration 014). */
  tx_hash: string | null;
  created_at: number;
  paid_at: number | null;
}

export interface MiningTables {
  mining_sessions: MiningSessionsTable;
  temp_boosts: TempBoostsTable;
  rate_boosts: RateBoostsTable;
  auto_miner_subscriptions: AutoMinerSubscriptionsTable;
  payment_orders: PaymentOrdersTable;
}
