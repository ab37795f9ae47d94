// Mining: sessions, boosts, the mining shop and the Auto Miner (decisions §6). Times are ISO 8601
// UTC strings; PXT amounts are numbers with at most 6 decimals.
import { z } from 'zod';
import { TEMP_BOOST_HOURS } from '../constants';

const id = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const isoTime = z.string().describe('ISO 8601 UTC time');

/** A temporary boost's part inside one session (decisions §6). */
export const sessionBoostSchema = z.object({
  boost_id: z.number().int(),
  starts_at: isoTime,
  /** Clipped to the session end: boost time past it expired unused. */
  ends_at: isoTime,
  value: z.number(),
});
export type SessionBoost = z.infer<typeof sessionBoostSchema>;

export const miningSessionSchema = z.object({
  id: z.number().int(),
  started_at: isoTime,
  ends_at: isoTime,
  claimed: z.boolean(),
  claimed_at: isoTime.nullable(),
  /** PXT per hour before temporary boosts: base × (1 + boost_percent / 100). */
  rate_per_hour: z.number(),
  /** Task + referral boost percent, fixed when the session started. */
  boost_percent: z.number().int(),
  /** PXT the session pays (claimed: what it paid; running: what it will pay with the boosts applied so far). */
  reward: z.number(),
  temporary_boosts: z.array(sessionBoostSchema),
});
export type MiningSession = z.infer<typeof miningSessionSchema>;

export const startMiningResponseSchema = z.object({
  session: miningSessionSchema,
  /** Boosts selected before the start and applied to this session. */
  applied_temporary_boosts: z.array(sessionBoostSchema),
});
export type StartMiningResponse = z.infer<typeof startMiningResponseSchema>;

export const SESSIONS_PAGE_SIZE_DEFAULT = 20;
export const SESSIONS_PAGE_SIZE_MAX = 100;

export const sessionsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(SESSIONS_PAGE_SIZE_MAX).default(SESSIONS_PAGE_SIZE_DEFAULT),
});
export type SessionsQuery = z.infer<typeof sessionsQuerySchema>;

/** GET /mining/sessions/: newest first; `next`/`previous` are the API paths of the next/previous page, or null. */
export const sessionsPageSchema = z.object({
  count: z.number().int(),
  next: z.string().nullable(),
  previous: z.string().nullable(),
  results: z.array(miningSessionSchema),
});
export type SessionsPage = z.infer<typeof sessionsPageSchema>;

export const BOOST_TYPES = ['temporary', 'task', 'referral'] as const;
export type BoostType = (typeof BOOST_TYPES)[number];

export const boostSchema = z.object({
  id: z.number().int(),
  boost_type: z.enum(BOOST_TYPES),
  /** Temporary: applied to the running session and not yet over. Task/referral boosts: always true. */
  is_active: z.boolean(),
  /** Temporary: the rate multiplier (2). Task/referral: the percent it adds (5 / 10). */
  value: z.number(),
  /** Selected to be applied when the next session starts. */
  is_selected: z.boolean(),
  /** Temporary boosts only; null for the permanent task/referral boosts. */
  duration_seconds: z.number().int().nullable(),
});
export type Boost = z.infer<typeof boostSchema>;

export const boostsResponseSchema = z.object({
  /** Unused and running temporary boosts, then task boosts, then referral boosts. */
  boosts: z.array(boostSchema),
  /** Percent from task boosts. */
  task_total_boost: z.number().int(),
  task_count: z.number().int(),
  /** Percent from referral boosts (capped at 100). */
  referral_total_boost: z.number().int(),
  referral_count: z.number().int(),
  /** Active friends whose +10 % waits for "Claim referral boosts" (0: the claim cannot succeed). */
  referral_waiting: z.number().int(),
  /** Temporary boosts not used yet (owned or selected). */
  temporary_count: z.number().int(),
});
export type BoostsResponse = z.infer<typeof boostsResponseSchema>;

export const selectTempBoostRequestSchema = z.object({ boost_id: id });
export type SelectTempBoostRequest = z.infer<typeof selectTempBoostRequestSchema>;
export const selectTempBoostResponseSchema = z.object({ message: z.string(), boost: boostSchema });
export type SelectTempBoostResponse = z.infer<typeof selectTempBoostResponseSchema>;

export const applyTempBoostRequestSchema = z.object({ boost_id: id, force_apply: z.boolean().default(false) });
export type ApplyTempBoostRequest = z.input<typeof applyTempBoostRequestSchema>;
/**
 * 200 either way. `applied: false` (with `force_apply` false) means the boost would run past the
 * session end: nothing was applied, `efficiency_percent` says how much of it would count; re-send
 * with `force_apply: true` to apply it anyway.
 */
export const applyTempBoostResponseSchema = z.object({
  /** What happened, for the client's own text in the player's language (`message` is English). */
  code: z.enum(['boost_applied', 'boost_longer_than_session']),
  message: z.string(),
  efficiency_percent: z.number().int(),
  applied: z.boolean(),
  boost: sessionBoostSchema.optional(),
  session: miningSessionSchema.optional(),
});
export type ApplyTempBoostResponse = z.infer<typeof applyTempBoostResponseSchema>;

export const rewardTaskBoostRequestSchema = z.object({ task_title: z.string().trim().min(1).max(200) });
export type RewardTaskBoostRequest = z.infer<typeof rewardTaskBoostRequestSchema>;
export const rewardTaskBoostResponseSchema = z.object({
  message: z.string(),
  boost: boostSchema,
  task_total_boost: z.number().int(),
  task_count: z.number().int(),
});
export type RewardTaskBoostResponse = z.infer<typeof rewardTaskBoostResponseSchema>;

export const rewardReferralBoostResponseSchema = z.object({
  message: z.string(),
  /** Referral boosts granted by this call. */
  added: z.number().int(),
  referral_total_boost: z.number().int(),
  referral_count: z.number().int(),
});
export type RewardReferralBoostResponse = z.infer<typeof rewardReferralBoostResponseSchema>;

export const SHOP_ITEM_IDS = TEMP_BOOST_HOURS.map((h) => `boost_${h}h`) as [string, ...string[]];

export const shopItemSchema = z.object({
  id: z.string(),
  hours: z.number().int(),
  duration_seconds: z.number().int(),
  value: z.number(),
  price_gems: z.number().int(),
});
export type ShopItem = z.infer<typeof shopItemSchema>;
export const shopResponseSchema = z.object({ items: z.array(shopItemSchema) });
export type ShopResponse = z.infer<typeof shopResponseSchema>;

export const shopBuyRequestSchema = z.object({ item_id: z.enum(SHOP_ITEM_IDS) });
export type ShopBuyRequest = z.infer<typeof shopBuyRequestSchema>;
export const shopBuyResponseSchema = z.object({
  boost: boostSchema,
  /** Gems left. */
  gems: z.number().int(),
});
export type ShopBuyResponse = z.infer<typeof shopBuyResponseSchema>;

export const subscriptionSchema = z.object({
  id: z.number().int(),
  price_gems: z.number().int(),
  started_at: isoTime,
  expires_at: isoTime,
  /** Not over yet (running now, or prepaid to follow the running period). */
  active: z.boolean(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const autoStartResponseSchema = z.object({
  subscription: subscriptionSchema,
  /** Gems left. */
  gems: z.number().int(),
  /** The session the Auto Miner started now, when none was running. */
  session: miningSessionSchema.nullable(),
});
export type AutoStartResponse = z.infer<typeof autoStartResponseSchema>;
