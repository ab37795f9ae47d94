// Tables of the arcade season (migration 004). XP is not stored: it is read from the ledger.
import type { Generated } from 'kysely';

export interface SeasonsTable {
  id: Generated<number>;
  title: string;
  /** Epoch ms; a season is active from starts_at (inclusive) to ends_at (exclusive). Seasons never overlap. */
  starts_at: number;
  ends_at: number;
  created_at: number;
}

export interface SeasonClaimsTable {
  id: Generated<number>;
  /** Unique (user_id, season_id, tier): a tier pays once, even when two claims race. */
  user_id: number;
  season_id: number;
  tier: number;
  claimed_at: number;
}

export interface SeasonTables {
  seasons: SeasonsTable;
  season_claims: SeasonClaimsTable;
}
