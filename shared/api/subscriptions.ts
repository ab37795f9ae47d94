// The player's Auto Miner periods (decisions §9), newest first.
import { z } from 'zod';
import { subscriptionSchema } from './mining';

export const subscriptionListResponseSchema = z.array(subscriptionSchema);
export const subscriptionIdParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });
