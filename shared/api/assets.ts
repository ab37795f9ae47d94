// The player's inventory (decisions §9): temporary boosts grouped by duration.
import { z } from 'zod';

export const assetGroupSchema = z.object({
  asset_type: z.literal('temporary_boost'),
  duration_seconds: z.number().int(),
  value: z.number(),
  /** Unused boosts of this duration (owned or selected). */
  quantity: z.number().int(),
  selected_quantity: z.number().int(),
  /** Their ids, oldest first: what `/assets/detail/{id}/` and the boost calls take. */
  boost_ids: z.array(z.number().int()),
});
export type AssetGroup = z.infer<typeof assetGroupSchema>;
export const assetListResponseSchema = z.array(assetGroupSchema);

export const assetDetailSchema = z.object({
  id: z.number().int(),
  asset_type: z.literal('temporary_boost'),
  duration_seconds: z.number().int(),
  value: z.number(),
  state: z.enum(['owned', 'selected', 'applied', 'expired']),
  /** Where it came from: welcome gift, mining shop, season tier or operator grant. */
  source: z.enum(['welcome', 'shop', 'season', 'admin']),
  acquired_at: z.string(),
  /** The session it was applied to, and its part inside that session. */
  session_id: z.number().int().nullable(),
  starts_at: z.string().nullable(),
  ends_at: z.string().nullable(),
});
export type AssetDetail = z.infer<typeof assetDetailSchema>;

export const assetIdParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });
