// The miner's Auto Miner card: active until when, or its price and the subscribe button; its periods.
// Memoised: the page re-renders every second for the countdown, this card only when its data changes.
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AUTO_MINER_DAYS, AUTO_MINER_PRICE_GEMS } from '@shared/constants';
import type { Subscription } from '@shared/api/mining';
import { Button } from '@/components/button';
import { openModal } from '@/lib/modal-state';
import { formatDateTime } from '../lib/format';
import { SubscriptionPeriods } from './subscription-detail';

export const MinerAutoCard = memo(function MinerAutoCard({
  activeUntil,
  subscriptions,
}: {
  /** When the Auto Miner's last active period ends (ms), null when none is active. */
  activeUntil: number | null;
  subscriptions: Subscription[];
}) {
  const { t, i18n } = useTranslation('mining');
  return (
    <section className="mining-card mining-auto" aria-labelledby="mining-auto-title">
      <h2 id="mining-auto-title" className="mining-card__title">
        {t('auto.title')}
      </h2>
      {activeUntil !== null ? (
        <p className="mining-auto__state mining-on" data-testid="auto-miner-state">
          {t('auto.activeUntil', { date: formatDateTime(activeUntil, i18n.language) })}
        </p>
      ) : (
        <>
          <p className="mining-hint" data-testid="auto-miner-state">
            {t('auto.inactive', { price: AUTO_MINER_PRICE_GEMS, days: AUTO_MINER_DAYS })}
          </p>
          <Button block onClick={() => openModal('autoMiner')}>
            {t('auto.subscribe')}
          </Button>
        </>
      )}
      <SubscriptionPeriods list={subscriptions} />
      <Link className="mining-link" to="/mining">
        {t('shopLink')}
      </Link>
    </section>
  );
});
