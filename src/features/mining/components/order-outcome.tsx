// /miner?order={id} (decisions §8): where the card and sbp providers send the player back. Shows that
// order's outcome: paid (the Gems added and the balance), still waiting (looked at again every few
// seconds), or failed/expired with a way to try again.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Spinner } from '@/components/spinner';
import { useCurrentUser } from '@/lib/current-user';
import { openModal } from '@/lib/modal-state';
import { paymentFailureText } from '../lib/payment-errors';
import { loadOrder } from '../state/payment-actions';
import { useFollowedOrder } from '../state/use-followed-order';
import { OrderStatus } from './order-status';

export function OrderOutcome() {
  const [search] = useSearchParams();
  const raw = search.get('order');
  const id = raw && /^\d{1,15}$/.test(raw) ? Number(raw) : null;
  return id ? <OrderOutcomeOf key={id} id={id} /> : null;
}

function OrderOutcomeOf({ id }: { id: number }) {
  const { t } = useTranslation('mining');
  const user = useCurrentUser();
  const follow = useFollowedOrder(t);
  const { setFollowed } = follow;
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    loadOrder(id).then(
      (f) => live && setFollowed(f),
      (err) => live && setLoadError(paymentFailureText(err, t)),
    );
    return () => {
      live = false;
    };
  }, [id, t, setFollowed]);

  const error = loadError ?? follow.error ?? follow.subscribeError;
  return (
    <section
      className="mining-card mining-order"
      aria-label={t('topUp.order.title', { id })}
      data-testid="order-outcome"
    >
      {follow.followed ? (
        <OrderStatus
          followed={follow.followed}
          balance={user?.gems ?? 0}
          onRetry={() => openModal('topUp')}
          subscribedUntil={follow.subscribedUntil}
        />
      ) : (
        !error && <Spinner size="sm" label={t('topUp.order.loading', { id })} />
      )}
      {error && (
        <p className="modal-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
