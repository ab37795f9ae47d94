// Paying a tether order (decisions §8): after the wallet sent the USDT `transfer`, the client posts
// its hash to POST /payments/orders/{id}/tx/ and gets the order back, paid or pending with its
// confirmations. Refusals: 400 `wallet_required`, `not_tether_order`, `tx_<reason>` (the chain
// says the transaction does not pay this order: reverted, wrong_token, wrong_recipient,
// wrong_sender, amount_too_low); 409 `tx_used` (it pays another order), `order_not_pending`;
// 503 `chain_unavailable` (the node cannot be asked: nothing was decided, send it again).
import { z } from 'zod';
import { paymentOrderSchema } from './payments';

export const orderIdParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });

export const TX_HASH_PATTERN = /^0x[0-9a-fA-F]{64}$/;
export const tetherTxRequestSchema = z.object({
  tx_hash: z.string().regex(TX_HASH_PATTERN, 'A transaction hash is 0x and 64 hex digits'),
});
export type TetherTxRequest = z.infer<typeof tetherTxRequestSchema>;

export const tetherTxResponseSchema = z.object({
  order: paymentOrderSchema,
  tx_hash: z.string(),
  /** Blocks the transaction has so far (0: not mined yet) and how many paying it needs. */
  confirmations: z.number().int(),
  required_confirmations: z.number().int(),
  /** The Gems balance after this call. */
  gems: z.number().int(),
});
export type TetherTxResponse = z.infer<typeof tetherTxResponseSchema>;

export const TETHER_FAILURES = [
  'reverted',
  'wrong_token',
  'wrong_recipient',
  'wrong_sender',
  'amount_too_low',
] as const;
