// POST /payments/orders/{id}/tx/ (decisions §8, tether): the player names the transaction that pays
// their pending tether order. The server asks the chain itself (services/payments/usdt-chain.ts)
// before it records anything, records the hash under a unique column, and pays the order once with
// the verdict; the chain is asked outside any database transaction. Calling again with the same
// hash is how a client follows the confirmations; a hash the chain refuses is not kept.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Hash } from 'viem';
import { orderIdParamsSchema, tetherTxRequestSchema, tetherTxResponseSchema } from '@shared/api/payments-tether';
import { ApiError, conflict, notFound, refuse } from '../../lib/errors';
import { transactionWithAnswer } from '../../plugins/idempotency';
import { orderJson } from '../../services/payments/order-views';
import { UsdtChainUnavailable, type UsdtFailure } from '../../services/payments/usdt-chain';
import {
  payTetherOrder,
  providerOrderOf,
  recheckTetherOrder,
  recordTxHash,
  releaseTxHash,
} from '../../services/payments/usdt-orders';
import { usdtProvider, walletRequired } from '../../services/payments/usdt-provider';
import { takeAttempt } from '../../services/throttle';
import { isUniqueViolation } from '../../services/users';

/**
 * Chain checks per player and minute: each costs the node (often a metered provider) three or four
 * calls, so a script posting hashes in a loop must not use up the server's quota. A client
 * following the confirmations posts every few seconds, well below it.
 */
export const TETHER_CHECKS_PER_MINUTE = 30;

const FAILURE_DETAIL: Record<UsdtFailure, string> = {
  reverted: 'The transaction failed on the chain (reverted): no USDT moved.',
  wrong_token: 'The transaction is not a transfer of the configured USDT token.',
  wrong_recipient: 'The transaction does not send USDT to the payment address of this order.',
  wrong_sender: 'The transaction was not sent from your linked wallet.',
  amount_too_low: 'The transaction sends less USDT than the order costs.',
};

const txUsed = () => conflict('This transaction was already submitted for another order.', 'tx_used');
const notPending = () => conflict('This order is not waiting for a payment.', 'order_not_pending');

/** Asks the chain; a node that cannot answer is a 503 the client retries, and nothing was decided. */
async function chainCall<T>(request: FastifyRequest, orderId: number, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof UsdtChainUnavailable) {
      request.log.warn({ err: err.message, orderId }, 'USDT node unavailable');
      throw new ApiError(
        503,
        'chain_unavailable',
        'The payment network cannot be reached right now. Send the transaction again in a minute.',
        { retryAfterSeconds: 30 },
      );
    }
    throw err;
  }
}

const routes: FastifyPluginAsyncZod = async (app) => {
  const provider = app.config.usdt ? usdtProvider(app.config.usdt) : null;
  const tags = ['payments'];
  const security = [{ bearer: [] }];

  app.post(
    '/payments/orders/:id/tx/',
    {
      onRequest: app.requireUser,
      config: {
        answers: { 409: ['tx_used', 'order_not_pending'], 503: ['chain_unavailable', 'payments_unavailable'] },
      },
      schema: {
        tags,
        security,
        summary:
          'Pay a tether order with a USDT transaction (400 tx_<reason> when the chain refuses it, 409 tx_used, 503 chain_unavailable)',
        params: orderIdParamsSchema,
        body: tetherTxRequestSchema,
        response: { 200: tetherTxResponseSchema },
      },
    },
    async (request) => {
      const userId = request.userId!;
      // Lower case: the same transaction in another spelling must hit the same unique value.
      const txHash = request.body.tx_hash.toLowerCase() as Hash;
      const orderId = request.params.id;
      const order = await app.db
        .selectFrom('payment_orders')
        .selectAll()
        .where('id', '=', orderId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!order) throw notFound('No such order.');
      if (order.method !== 'tether') throw refuse('not_tether_order', 'This order is not paid with USDT.');
      const user = await app.db
        .selectFrom('users')
        .select(['wallet_address', 'gems'])
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      if (!user.wallet_address) throw walletRequired();

      const answer = (row: typeof order, confirmations: number, gems: number) => ({
        order: orderJson(row),
        tx_hash: txHash,
        confirmations,
        required_confirmations: provider?.settings.confirmations ?? 0,
        gems,
      });
      // Paid already by this very transaction (a repeat, or a parallel call that won): the same answer.
      if (order.status === 'paid' && order.tx_hash === txHash)
        return answer(order, provider?.settings.confirmations ?? 0, Number(user.gems));
      if (order.status !== 'pending') throw notPending();
      if (!provider) throw new ApiError(503, 'payments_unavailable', 'USDT payments are not available');
      await takeAttempt(app.db, [{ key: `usdt_check:${userId}`, max: TETHER_CHECKS_PER_MINUTE, windowMs: 60_000 }]);
      const holder = await app.db
        .selectFrom('payment_orders')
        .selectAll()
        .where('tx_hash', '=', txHash)
        .executeTakeFirst();
      if (holder && Number(holder.id) !== orderId) {
        // Another pending order may hold a hash its player posted before this node had seen the
        // transaction (copied from the mempool): asked again, the chain frees it unless it pays that order.
        if (holder.status !== 'pending') throw txUsed();
        const holderWallet = await app.db
          .selectFrom('users')
          .select('wallet_address')
          .where('id', '=', holder.user_id)
          .executeTakeFirst();
        const recheck = await chainCall(request, orderId, () =>
          recheckTetherOrder(app.db, provider, holder, holderWallet?.wallet_address ?? null),
        );
        if (recheck?.status !== 'failed') throw txUsed();
      }

      const verdict = await chainCall(request, orderId, () =>
        provider.verify(providerOrderOf(order, user.wallet_address), txHash),
      );
      if (verdict.status === 'failed') {
        await releaseTxHash(app.db, orderId, txHash);
        throw refuse(`tx_${verdict.reason}`, FAILURE_DETAIL[verdict.reason]);
      }

      try {
        return await transactionWithAnswer(app.db, request, async (trx) => {
          const recorded = await recordTxHash(trx, orderId, txHash, user.wallet_address!);
          if (recorded && verdict.status === 'paid') await payTetherOrder(trx, orderId, txHash);
          const now = await trx
            .selectFrom('payment_orders')
            .selectAll()
            .where('id', '=', orderId)
            .executeTakeFirstOrThrow();
          // Not pending any more: paid meanwhile by this hash (a parallel call), or by another, or expired.
          if (!recorded && !(now.status === 'paid' && now.tx_hash === txHash)) throw notPending();
          const gems = await trx.selectFrom('users').select('gems').where('id', '=', userId).executeTakeFirstOrThrow();
          return answer(now, verdict.confirmations, Number(gems.gems));
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw txUsed();
        throw err;
      }
    },
  );
};
export default routes;
