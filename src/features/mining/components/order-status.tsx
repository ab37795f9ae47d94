// One order's state in words (decisions §8), shared by the Top Up dialog and /miner?order={id}:
// paid (Gems added, the balance), waiting (the provider's page, or the wallet transfer and its
// confirmations), failed, expired or refunded (with a way to try again).
import { useTranslation } from 'react-i18next';
import { AUTO_MINER_PRICE_GEMS } from '@shared/constants';
import { Button } from '@/components/button';
import { Spinner } from '@/components/spinner';
import { formatUsdt } from '@/lib/format-pxt';
import { formatDateTime } from '../lib/format';
import { orderPhase } from '../lib/top-up-view';
import type { FollowedOrder } from '../state/payment-actions';

export interface OrderStatusProps {
  followed: FollowedOrder;
  balance: number;
  /** tether, not sent yet: asks the wallet again. */
  onPayWallet?: () => void;
  paying?: boolean;
  onRetry?: () => void;
  subscribedUntil?: Date | null;
}

export function OrderStatus({ followed, balance, onPayWallet, paying, onRetry, subscribedUntil }: OrderStatusProps) {
  const { t, i18n } = useTranslation('mining');
  const lang = i18n.language;
  const { order, confirmations, required } = followed;
  const phase = orderPhase(order);
  const values = {
    id: order.id,
    gems: order.gems,
    // The counted Gems take their plural form through common:units.gems (its count, a number).
    balanceCount: balance,
    amount: formatUsdt(order.pay_to?.amount, lang),
  };

  // Outside production the test provider pays at once and takes no money: the order says so.
  const testLine = order.test && (
    <p className="mining-hint mining-center" data-testid="order-test">
      {t('topUp.order.test', values)}
    </p>
  );

  if (phase === 'paid') {
    return (
      <>
        <p className="mining-notice mining-notice--ok" role="status" data-testid="order-status" data-phase={phase}>
          {subscribedUntil ? t('topUp.order.paidGems', values) : t('topUp.order.paid', values)}
        </p>
        {subscribedUntil && (
          // Issue 24: where the Gems went: the balance shown is after the Auto Miner took its price.
          <p className="mining-notice mining-notice--ok" role="status" data-testid="order-auto-miner">
            {t('topUp.order.autoMinerTook', {
              price: AUTO_MINER_PRICE_GEMS,
              date: formatDateTime(subscribedUntil, lang),
              balanceCount: balance,
            })}
          </p>
        )}
        {testLine}
      </>
    );
  }
  if (phase === 'failed' || phase === 'expired' || phase === 'refunded') {
    return (
      <>
        <p className="mining-notice mining-notice--error" role="alert" data-testid="order-status" data-phase={phase}>
          {t(`topUp.order.${phase}`, values)}
        </p>
        {testLine}
        {onRetry && (
          <div className="modal-actions">
            <Button block onClick={onRetry}>
              {t('topUp.retry')}
            </Button>
          </div>
        )}
      </>
    );
  }
  const text =
    phase === 'confirming'
      ? required
        ? t('topUp.order.confirming', { ...values, count: Math.min(confirmations ?? 0, required), required })
        : t('topUp.order.confirmingUnknown', values)
      : t(`topUp.order.${phase}`, values);
  return (
    <>
      <p
        className="mining-notice mining-notice--warn"
        role="status"
        aria-live="polite"
        data-testid="order-status"
        data-phase={phase}
      >
        {phase !== 'awaitingWallet' && <Spinner size="sm" />} {text}
      </p>
      {testLine}
      {phase === 'awaitingCheckout' && order.checkout_url && (
        <div className="modal-actions">
          <a className="btn btn--primary btn--block" href={order.checkout_url}>
            {t('topUp.checkout')}
          </a>
        </div>
      )}
      {phase === 'awaitingWallet' && onPayWallet && (
        <div className="modal-actions">
          <Button block onClick={onPayWallet} loading={paying}>
            {t('topUp.payWallet')}
          </Button>
        </div>
      )}
    </>
  );
}
