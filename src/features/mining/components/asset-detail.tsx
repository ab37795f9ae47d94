import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { Spinner } from '@/components/spinner';
import { formatDateTime } from '../lib/format';
import { assetsState } from '../state/assets-state';

/** One boost of the inventory as the server knows it (GET /assets/detail/{id}/). */
export function AssetDetailPanel() {
  const { t, i18n } = useTranslation('mining');
  const { detail, detailId } = useAtomValue(assetsState.atom);
  if (detailId === null && !detail.error) return null;
  const a = detail.data;
  const lang = i18n.language;

  return (
    <section
      className="mining-card mining-detail"
      aria-labelledby="asset-detail-title"
      aria-busy={detail.loading || undefined}
      data-testid="asset-detail"
    >
      <div className="mining-detail__head">
        <h2 id="asset-detail-title" className="mining-card__title">
          {a ? t('assetDetail.title', { hours: a.duration_seconds / 3600 }) : t('assetDetail.openShort')}
        </h2>
        <Button variant="ghost" onClick={assetsState.clearDetail}>
          {t('assetDetail.close')}
        </Button>
      </div>
      {detail.loading && <Spinner label={t('assetDetail.loading')} />}
      {detail.error && (
        <p className="mining-notice mining-notice--error" role="alert">
          {detail.error}
        </p>
      )}
      {a && !detail.loading && (
        <dl className="mining-detail__facts">
          <div>
            <dt>{t('assetDetail.state')}</dt>
            <dd>{t(`assetDetail.states.${a.state}`)}</dd>
          </div>
          <div>
            <dt>{t('assetDetail.source')}</dt>
            <dd>{t(`assetDetail.sources.${a.source}`)}</dd>
          </div>
          <div>
            <dt>{t('assetDetail.acquired')}</dt>
            <dd>{formatDateTime(a.acquired_at, lang)}</dd>
          </div>
          {a.starts_at && a.ends_at && (
            <div>
              <dt>{t('assetDetail.applied')}</dt>
              <dd>
                {t('subscription.period', {
                  from: formatDateTime(a.starts_at, lang),
                  to: formatDateTime(a.ends_at, lang),
                })}
              </dd>
            </div>
          )}
        </dl>
      )}
    </section>
  );
}
