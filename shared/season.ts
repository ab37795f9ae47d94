// Rules of the arcade season (battle pass, decisions §9), shared so the client can explain them and
// the server pays them. XP counts what the ledger shows inside the season's dates.
export const SEASON_TIERS = 30;
export const XP_PER_TIER = 100;
/** XP for each claimed mining session (`mining_claim` ledger row). */
export const XP_PER_MINING_CLAIM = 10;
/** XP for each coin paid by quests, category rewards and referral awards. */
export const XP_PER_QUEST_COIN = 1;
/** Every 5th tier pays a temporary boost of this many hours instead of coins. */
export const SEASON_BOOST_EVERY = 5;
export const SEASON_BOOST_HOURS = 4;
/** The last tier pays Gems. */
export const SEASON_FINAL_GEMS = 50;
/** Length of the season the server creates on its first start. */
export const DEFAULT_SEASON_DAYS = 30;

export type TierReward =
  { kind: 'coins'; amount: number } | { kind: 'boost'; hours: number } | { kind: 'gems'; amount: number };

/**
 * The free reward of a tier: 50 Gems at the top, a 4-hour boost every 5th tier, coins otherwise,
 * growing by 10 after each boost tier (10 for tiers 1–4, 20 for 6–9 … 60 for 26–29; 840 in all).
 */
export function tierReward(tier: number): TierReward {
  if (tier === SEASON_TIERS) return { kind: 'gems', amount: SEASON_FINAL_GEMS };
  if (tier % SEASON_BOOST_EVERY === 0) return { kind: 'boost', hours: SEASON_BOOST_HOURS };
  return { kind: 'coins', amount: 10 * (Math.floor((tier - 1) / SEASON_BOOST_EVERY) + 1) };
}

export const xpRequired = (tier: number) => tier * XP_PER_TIER;
export const tierOf = (xp: number) => Math.min(SEASON_TIERS, Math.floor(xp / XP_PER_TIER));
