// Gems top-up (decisions §8).
import { z } from 'zod';
import { PAYMENT_METHODS, type PaymentMethod, TOP_UP_ITEM } from '../constants';

export const paymentItemSchema = z.object({ id: z.string(), gems: z.number().int(), price_usd: z.number() });
export type PaymentItem = z.infer<typeof paymentItemSchema>;
export const paymentItemsResponseSchema = z.array(paymentItemSchema);

export const topUpRequestSchema = z.object({
  item_id: z.enum([TOP_UP_ITEM.id]),
  method: z.enum(PAYMENT_METHODS as unknown as [PaymentMethod, ...PaymentMethod[]]),
});
export type TopUpRequest = z.infer<typeof topUpRequestSchema>;

export const paymentOrderSchema = z.object({
  id: z.number().int(),
  item_id: z.string(),
  gems: z.number().int(),
  price_usd: z.number(),
  method: z.string(),
  status: z.enum(['pending', 'paid', 'failed']),
  /** Where to send the player to pay, for a provider that pays outside the app; null once paid. */
  checkout_url: z.string().nullable(),
});
export type PaymentOrder = z.infer<typeof paymentOrderSchema>;

/** 200 with the order; 503 `payments_unavailable` when no payment provider is configured. */
export const topUpResponseSchema = z.object({
  order: paymentOrderSchema,
  /** The Gems balance after this call (credited already when the order is paid). */
  gems: z.number().int(),
});
export type TopUpResponse = z.infer<typeof topUpResponseSchema>;
