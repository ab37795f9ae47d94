// GET /referrals/ and /referrals/{id}/: the players who joined through this player's link.
import { z } from 'zod';

export const referralSchema = z.object({
  id: z.number().int(),
  /** null until the referral has chosen one. */
  username: z.string().nullable(),
  wallet_address: z.string().nullable(),
  /** ISO 8601 UTC. */
  joined_at: z.string(),
  /** Counts for awards, invite quests, boosts and the beta: has claimed a mining session (decisions §12). */
  active: z.boolean(),
});
export type Referral = z.infer<typeof referralSchema>;

export const referralListSchema = z.array(referralSchema);
export type ReferralList = z.infer<typeof referralListSchema>;

export const referralParamsSchema = z.object({
  id: z.string().regex(/^[1-9][0-9]{0,14}$/, 'Invalid id'),
});
