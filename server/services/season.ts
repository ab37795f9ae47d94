// The arcade season (decisions §9): the active season, a player's XP read from the ledger rows inside
// its dates, the 30 tiers with their rewards, and paying a tier once.
import type { Selectable } from 'kysely';
import {
  SEASON_TIERS,
  type TierReward,
  tierOf,
  tierReward,
  XP_PER_MINING_CLAIM,
  XP_PER_QUEST_COIN,
  XP_PER_TIER,
  xpRequired,
} from '@shared/season';
import type { Tx } from '../db/schema';
import type { SeasonsTable } from '../db/tables/season';
import { notFound, refuse } from '../lib/errors';
import { post, QUEST_COIN_REASONS } from './ledger';
import { grantTempBoost } from './temp-boosts';
import { isoTime } from '../lib/iso-time';

export type Season = Selectable<SeasonsTable>;

export const noActiveSeason = () => notFound('No arcade season is running right now.', 'no_active_season');

/** The season running at `now`, if any (seasons never overlap). */
export function activeSeason(db: Tx, now: number): Promise<Season | undefined> {
  return db
    .selectFrom('seasons')
    .selectAll()
    .where('starts_at', '<=', now)
    .where('ends_at', '>', now)
    .orderBy('starts_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** XP of a player in a season: 10 per claimed mining session, 1 per coin earned from quests. */
export async function seasonXp(db: Tx, userId: number, season: Pick<Season, 'starts_at' | 'ends_at'>): Promise<number> {
  const rows = await db
    .selectFrom('ledger')
    .select((eb) => ['reason', eb.fn.countAll<number>().as('rows'), eb.fn.sum<number>('amount').as('total')])
    .where('user_id', '=', userId)
    .where('created_at', '>=', Number(season.starts_at))
    .where('created_at', '<', Number(season.ends_at))
    .where('amount', '>', 0)
    .where((eb) =>
      eb.or([
        eb('reason', '=', 'mining_claim'),
        eb.and([eb('reason', 'in', [...QUEST_COIN_REASONS]), eb('currency', '=', 'balance')]),
      ]),
    )
    .groupBy('reason')
    .execute();
  let xp = 0;
  for (const r of rows) {
    // PostgreSQL answers count and sum of bigint as strings.
    xp += r.reason === 'mining_claim' ? Number(r.rows) * XP_PER_MINING_CLAIM : Number(r.total) * XP_PER_QUEST_COIN;
  }
  return xp;
}

async function claimedTiers(db: Tx, userId: number, seasonId: number): Promise<Set<number>> {
  const rows = await db
    .selectFrom('season_claims')
    .select('tier')
    .where('user_id', '=', userId)
    .where('season_id', '=', seasonId)
    .execute();
  return new Set(rows.map((r) => Number(r.tier)));
}

export interface SeasonTier {
  tier: number;
  xp_required: number;
  reward: TierReward;
  claimed: boolean;
  claimable: boolean;
}

export interface SeasonView {
  id: number;
  title: string;
  starts_at: string;
  ends_at: string;
  xp: number;
  tier: number;
  xp_per_tier: number;
  tiers: SeasonTier[];
}

/** What GET /arcade/season/ answers for a player. */
export async function seasonView(db: Tx, userId: number, season: Season): Promise<SeasonView> {
  const [xp, claimed] = await Promise.all([seasonXp(db, userId, season), claimedTiers(db, userId, Number(season.id))]);
  const reached = tierOf(xp);
  return {
    id: Number(season.id),
    title: season.title,
    starts_at: isoTime(season.starts_at),
    ends_at: isoTime(season.ends_at),
    xp,
    tier: reached,
    xp_per_tier: XP_PER_TIER,
    tiers: Array.from({ length: SEASON_TIERS }, (_, i) => {
      const tier = i + 1;
      return {
        tier,
        xp_required: xpRequired(tier),
        reward: tierReward(tier),
        claimed: claimed.has(tier),
        claimable: tier <= reached && !claimed.has(tier),
      };
    }),
  };
}

/**
 * Pays one tier of the running season, inside the caller's transaction. The claim row's unique
 * index decides a race: the second claim finds it and is refused, and nothing is paid twice.
 */
export async function claimTier(
  trx: Tx,
  userId: number,
  tier: number,
  now: number,
): Promise<{ season: Season; reward: TierReward }> {
  const season = await activeSeason(trx, now);
  if (!season) throw noActiveSeason();
  const xp = await seasonXp(trx, userId, season);
  if (tierOf(xp) < tier) throw refuse('tier_not_reached', `Tier ${tier} needs ${xpRequired(tier)} XP; you have ${xp}.`);
  const seasonId = Number(season.id);
  const inserted = await trx
    .insertInto('season_claims')
    .values({ user_id: userId, season_id: seasonId, tier, claimed_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'season_id', 'tier']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) throw alreadyClaimed(tier);

  const reward = tierReward(tier);
  const ref = `season:${seasonId}:tier:${tier}`;
  const uniqueKey = `season_tier:${userId}:${seasonId}:${tier}`;
  if (reward.kind === 'boost') {
    await grantTempBoost(trx, userId, reward.hours, 'season', now);
  } else {
    const paid = await post(
      trx,
      {
        userId,
        currency: reward.kind === 'gems' ? 'gems' : 'balance',
        amount: reward.amount,
        reason: 'season_tier',
        ref,
        uniqueKey,
      },
      now,
    );
    if (!paid) throw alreadyClaimed(tier);
  }
  return { season, reward };
}

const alreadyClaimed = (tier: number) =>
  refuse('tier_already_claimed', `The reward of tier ${tier} has already been claimed.`);

/** Seasons whose dates overlap [startsAt, endsAt). */
export function overlappingSeasons(db: Tx, startsAt: number, endsAt: number): Promise<Season[]> {
  return db
    .selectFrom('seasons')
    .selectAll()
    .where('starts_at', '<', endsAt)
    .where('ends_at', '>', startsAt)
    .orderBy('starts_at')
    .execute();
}

export function listSeasons(db: Tx): Promise<Season[]> {
  return db.selectFrom('seasons').selectAll().orderBy('starts_at').execute();
}

/** A season the operator asked for breaks a rule (bad title or dates, overlap). */
export class SeasonRuleError extends Error {}

/** Adds a season for the operator. Dates must make sense and not overlap another season. */
export async function createSeason(
  trx: Tx,
  s: { title: string; startsAt: number; endsAt: number },
  now = Date.now(),
): Promise<Season> {
  const title = s.title.trim();
  if (title === '' || title.length > 100) throw new SeasonRuleError('the title must be 1 to 100 characters');
  if (!Number.isSafeInteger(s.startsAt) || !Number.isSafeInteger(s.endsAt))
    throw new SeasonRuleError('the dates are not valid');
  if (s.endsAt <= s.startsAt) throw new SeasonRuleError('the season must end after it starts');
  const clash = await overlappingSeasons(trx, s.startsAt, s.endsAt);
  if (clash.length > 0) {
    const c = clash[0];
    throw new SeasonRuleError(
      `the dates overlap season #${c.id} "${c.title}" (${new Date(Number(c.starts_at)).toISOString()} – ${new Date(Number(c.ends_at)).toISOString()})`,
    );
  }
  return trx
    .insertInto('seasons')
    .values({ title, starts_at: s.startsAt, ends_at: s.endsAt, created_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}
