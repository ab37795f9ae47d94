// Gems top-up and orders (decisions §8).
import { z } from 'zod';
import { PAYMENT_METHODS, type PaymentMethod, TOP_UP_ITEM, TOP_UP_QUANTITY_MAX } from '../constants';

const isoTime = z.string().describe('ISO 8601 UTC time');
const methodSchema = z.enum(PAYMENT_METHODS as unknown as [PaymentMethod, ...PaymentMethod[]]);

export const ORDER_STATUSES = ['created', 'pending', 'paid', 'failed', 'expired', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const paymentItemSchema = z.object({ id: z.string(), gems: z.number().int(), price_usd: z.number() });
export type PaymentItem = z.infer<typeof paymentItemSchema>;

/** Why a method cannot be used now: `not_configured` (this server has no provider for it). */
export const unavailableReasonSchema = z.enum(['not_configured']);

export const paymentItemsResponseSchema = z.object({
  items: z.array(paymentItemSchema),
  /** What this server can take now; the dialog shows the others disabled, with the reason below. */
  methods: z.array(methodSchema),
  unavailable: z.partialRecord(methodSchema, unavailableReasonSchema),
  /** Methods served by the test provider (outside production only): paid at once, no money taken. */
  test_methods: z.array(methodSchema),
});
export type PaymentItemsResponse = z.infer<typeof paymentItemsResponseSchema>;

export const topUpRequestSchema = z.object({
  item_id: z.enum([TOP_UP_ITEM.id]),
  method: methodSchema,
  /** Items in one order (e.g. the 3 × 50 Gems the Auto Miner needs). */
  quantity: z.number().int().min(1).max(TOP_UP_QUANTITY_MAX).default(1),
});
export type TopUpRequest = z.input<typeof topUpRequestSchema>;

/** tether: what the wallet transfers (amount in the token's smallest unit). */
export const payToSchema = z.object({
  chain_id: z.number().int(),
  contract: z.string(),
  to: z.string(),
  amount: z.string(),
});
export type PayTo = z.infer<typeof payToSchema>;

export const paymentOrderSchema = z.object({
  id: z.number().int(),
  item_id: z.string(),
  quantity: z.number().int(),
  /** The order's totals: quantity × the item's Gems and price. */
  gems: z.number().int(),
  price_usd: z.number(),
  method: methodSchema,
  status: z.enum(ORDER_STATUSES),
  created_at: isoTime,
  updated_at: isoTime,
  paid_at: isoTime.nullable(),
  /** Unpaid by then, the order expires. */
  expires_at: isoTime,
  /** The provider's page to pay on (card, sbp), while the order is open. */
  checkout_url: z.string().nullable(),
  /** What to transfer (tether), while the order is open. */
  pay_to: payToSchema.nullable(),
  tx_hash: z.string().nullable(),
  confirmations: z.number().int().nullable(),
  /** Why a failed order failed (a code), else null. */
  failure: z.string().nullable(),
  /** Made with the test provider (outside production only): nothing was charged. */
  test: z.boolean(),
});
export type PaymentOrder = z.infer<typeof paymentOrderSchema>;

/**
 * 200 with the order and what the method needs next; 400 `payment_method_unavailable` for a method
 * this server cannot take, `too_many_open_orders`; 502 `payment_provider_error` when the provider
 * could not start the payment; 503 `payments_unavailable` when no method is configured.
 */
export const topUpResponseSchema = z.object({
  order: paymentOrderSchema,
  /** The Gems balance after this call (credited already when the order is paid). */
  gems: z.number().int(),
  checkout_url: z.string().optional(),
  pay_to: payToSchema.optional(),
});
export type TopUpResponse = z.infer<typeof topUpResponseSchema>;

export const ORDERS_PAGE_SIZE_DEFAULT = 20;
export const ORDERS_PAGE_SIZE_MAX = 100;

export const ordersQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(ORDERS_PAGE_SIZE_MAX).default(ORDERS_PAGE_SIZE_DEFAULT),
});

/** GET /payments/orders/: newest first, paged like /mining/sessions/. */
export const ordersPageSchema = z.object({
  count: z.number().int(),
  next: z.string().nullable(),
  previous: z.string().nullable(),
  results: z.array(paymentOrderSchema),
});
export type OrdersPage = z.infer<typeof ordersPageSchema>;

export const orderParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });
