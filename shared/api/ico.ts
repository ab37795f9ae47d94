// GET /ico/: the token sale's figures, for players whose `ico` flag is set (403 `ico_not_enabled`
// otherwise). Buying is not part of the product yet: `buying_open` is always false.
import { z } from 'zod';

export const icoSchema = z.object({
  stage: z.number().int(),
  /** USD per PXT. */
  price_usd: z.number(),
  tokens_sold: z.number(),
  tokens_total: z.number(),
  /** ISO 8601, or null while the date is not announced. */
  starts_at: z.string().nullable(),
  ends_at: z.string().nullable(),
  buying_open: z.literal(false),
});
export type IcoJson = z.infer<typeof icoSchema>;
