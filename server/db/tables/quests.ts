// Tables of quests and the beta application (migration 003). Quest and award payments themselves
// live in the ledger; only what is not money needs a table of its own.
import type { Generated } from 'kysely';

export interface BetaApplicationsTable {
  id: Generated<number>;
  /** Unique: one application per player, even when two requests race. */
  user_id: number;
  telegram: string;
  discord: string;
  email: string;
  wallet: string;
  created_at: number;
}

/** The Telegram or Discord account a verified follow was paid for (migration 020): once per account. */
export interface FollowRewardsTable {
  network: string;
  account_id: string;
  user_id: number;
  paid_at: number;
}

export interface QuestTables {
  beta_applications: BetaApplicationsTable;
  follow_rewards: FollowRewardsTable;
}
