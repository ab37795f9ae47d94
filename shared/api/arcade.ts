// The arcade season (battle pass): GET /arcade/season/ and POST /arcade/claim/ {tier}. Signed-in
// players only. No season running: 404 `no_active_season`. Claim refusals are 400:
// `tier_not_reached`, `tier_already_claimed`.
import { z } from 'zod';
import { SEASON_TIERS } from '../season';

export const tierRewardSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('coins'), amount: z.number().int() }),
  z.object({ kind: z.literal('boost'), hours: z.number() }),
  z.object({ kind: z.literal('gems'), amount: z.number().int() }),
]);
export type TierRewardJson = z.infer<typeof tierRewardSchema>;

export const seasonTierSchema = z.object({
  tier: z.number().int(),
  xp_required: z.number().int(),
  reward: tierRewardSchema,
  claimed: z.boolean(),
  /** Reached and not claimed yet. */
  claimable: z.boolean(),
});

export const seasonSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  starts_at: z.string(),
  ends_at: z.string(),
  xp: z.number().int(),
  /** Highest tier reached (0 to 30). */
  tier: z.number().int(),
  xp_per_tier: z.number().int(),
  tiers: z.array(seasonTierSchema),
});
export type SeasonJson = z.infer<typeof seasonSchema>;

export const claimTierBodySchema = z.object({
  tier: z.number().int().min(1).max(SEASON_TIERS),
});

export const claimTierResponseSchema = z.object({
  tier: z.number().int(),
  reward: tierRewardSchema,
  /** The season after the claim, so the client can replace what it shows. */
  season: seasonSchema,
});
export type ClaimTierResponse = z.infer<typeof claimTierResponseSchema>;
