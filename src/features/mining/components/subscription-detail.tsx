import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import type { Subscription } from '@shared/api/mining';
import { Button } from '@/components/button';
import { Spinner } from '@/components/spinner';
import { fetchSubscription } from '../api/mining-api';
import { formatDateTime } from '../lib/format';
import { subscriptionsState } from '../state/assets-state';

/** The Auto Miner periods, each opening its detail (GET /subscriptions/{id}/) under the list. */
export function SubscriptionPeriods({ list }: { list: Subscription[] }) {
  const { t, i18n } = useTranslation('mining');
  const { detail, detailId } = useAtomValue(subscriptionsState.atom);
  if (list.length === 0) return null;
  const lang = i18n.language;
  const s = detail.data;

  return (
    <div className="mining-periods">
      <h3 className="mining-periods__title">{t('subscription.periods')}</h3>
      <ul className="mining-periods__list">
        {list.map((p) => {
          const range = { from: formatDateTime(p.started_at, lang), to: formatDateTime(p.expires_at, lang) };
          return (
            <li key={p.id}>
              <Button
                variant="link"
                onClick={() => void subscriptionsState.loadDetail(p.id, fetchSubscription)}
                aria-label={t('subscription.open', range)}
              >
                {t('subscription.period', range)}
              </Button>
            </li>
          );
        })}
      </ul>
      {(detailId !== null || detail.error) && (
        <section
          className="mining-detail"
          aria-labelledby="subscription-detail-title"
          aria-busy={detail.loading || undefined}
          data-testid="subscription-detail"
        >
          <div className="mining-detail__head">
            <h4 id="subscription-detail-title">{t('subscription.title')}</h4>
            <Button variant="ghost" onClick={subscriptionsState.clearDetail}>
              {t('subscription.close')}
            </Button>
          </div>
          {detail.loading && <Spinner label={t('subscription.loading')} />}
          {detail.error && (
            <p className="mining-notice mining-notice--error" role="alert">
              {detail.error}
            </p>
          )}
          {s && !detail.loading && (
            <dl className="mining-detail__facts">
              <div>
                <dt>{t('subscription.price')}</dt>
                <dd>{t('subscription.priceValue', { price: s.price_gems })}</dd>
              </div>
              <div>
                <dt>{t('subscription.started')}</dt>
                <dd>{formatDateTime(s.started_at, lang)}</dd>
              </div>
              <div>
                <dt>{t('subscription.expires')}</dt>
                <dd>{formatDateTime(s.expires_at, lang)}</dd>
              </div>
              <div>
                <dt>{t('subscription.status')}</dt>
                <dd>{s.active ? t('subscription.active') : t('subscription.over')}</dd>
              </div>
            </dl>
          )}
        </section>
      )}
    </div>
  );
}
