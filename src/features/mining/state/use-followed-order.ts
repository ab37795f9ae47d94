// Follows an open order until it is decided (decisions §8): looks again every few seconds while it
// is pending (a tether order only once its transaction is known), keeps looking through a lost
// connection, stops at a refusal, and runs `afterPaid` exactly once when it turns paid.
import { useEffect, useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import { isOpenOrder } from '../lib/top-up-view';
import { paymentFailureText } from '../lib/payment-errors';
import { miningFailure } from '../lib/mining-errors';
import { afterPaid, followOrder, forgetTx, loadOrder, rememberedTx, type FollowedOrder } from './payment-actions';

/** Between two looks at an open order: well under the server's 30 chain checks a minute. */
export const ORDER_POLL_MS = 4000;

export interface OrderFollow {
  followed: FollowedOrder | null;
  setFollowed: (f: FollowedOrder | null) => void;
  /** A refusal met while following (shown by the caller). */
  error: string | null;
  /** The Auto Miner's new end, when the paid order was bought for it. */
  subscribedUntil: Date | null;
  subscribeError: string | null;
}

const needsLook = (f: FollowedOrder) =>
  isOpenOrder(f.order) && (f.order.method !== 'tether' || Boolean(f.order.tx_hash ?? rememberedTx(f.order.id)));

export function useFollowedOrder(t: TFunction, initial: FollowedOrder | null = null): OrderFollow {
  const [followed, setFollowed] = useState<FollowedOrder | null>(initial);
  const [error, setError] = useState<string | null>(null);
  const [subscribedUntil, setSubscribedUntil] = useState<Date | null>(null);
  const [subscribeError, setSubscribeError] = useState<string | null>(null);
  const paidHandled = useRef<number | null>(null);

  useEffect(() => {
    if (!followed || !needsLook(followed)) return;
    let live = true;
    const timer = window.setTimeout(async () => {
      try {
        const next = await followOrder(followed);
        if (live) {
          setError(null);
          setFollowed(next);
        }
      } catch (err) {
        if (!live) return;
        const f = miningFailure(err, 'topUp', t);
        if (f.network || f.status >= 500 || f.status === 429) {
          // Offline, throttled or the node busy: look again later with the same state.
          setFollowed({ ...followed });
          return;
        }
        setError(paymentFailureText(err, t));
        // The chain refused the hash (the server keeps none): the player may send the transfer
        // again. Any other refusal (the order expired meanwhile, …): show the order as it is now.
        if (f.code?.startsWith('tx_')) forgetTx(followed.order.id);
        const fresh = await loadOrder(followed.order.id).catch(() => null);
        if (live && fresh) setFollowed(fresh);
      }
    }, ORDER_POLL_MS);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [followed, t]);

  useEffect(() => {
    const order = followed?.order;
    if (!order || order.status !== 'paid' || paidHandled.current === order.id) return;
    paidHandled.current = order.id;
    afterPaid(order).then(
      (until) => setSubscribedUntil(until),
      (err) => setSubscribeError(miningFailure(err, 'autoMiner', t).text),
    );
  }, [followed, t]);

  return { followed, setFollowed, error, subscribedUntil, subscribeError };
}
