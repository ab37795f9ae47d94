import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { shortWallet } from '@shared/validation';
import { Button } from '@/components/button';
import { Spinner } from '@/components/spinner';
import { currentLanguage } from '@/lib/i18n';
import { referralsState } from '../state/referrals-state';

/** One friend as the server knows them (GET referrals/{id}/), with its own loading and error. */
export function ReferralDetail() {
  const { t } = useTranslation('referrals');
  const { detail, detailId } = useAtomValue(referralsState.atom);
  if (detailId === null && !detail.error) return null;
  const r = detail.data;
  const date = new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium', timeStyle: 'short' });

  return (
    <section
      className="ref-detail"
      aria-labelledby="ref-detail-title"
      aria-busy={detail.loading || undefined}
      data-testid="referral-detail"
    >
      <div className="ref-detail__head">
        <h2 id="ref-detail-title">{t('detail.title')}</h2>
        <Button variant="ghost" onClick={referralsState.clearDetail}>
          {t('detail.close')}
        </Button>
      </div>
      {detail.loading && <Spinner label={t('detail.loading')} />}
      {detail.error && (
        <p className="ref-list__error" role="alert">
          {detail.error}
        </p>
      )}
      {r && !detail.loading && (
        <dl className="ref-detail__facts">
          <div>
            <dt>{t('detail.name')}</dt>
            <dd>{r.username || t('list.noName')}</dd>
          </div>
          <div>
            <dt>{t('detail.wallet')}</dt>
            <dd title={r.wallet_address ?? undefined}>
              {r.wallet_address ? shortWallet(r.wallet_address) : t('detail.noWallet')}
            </dd>
          </div>
          <div>
            <dt>{t('detail.joined')}</dt>
            <dd>{date.format(new Date(r.joined_at))}</dd>
          </div>
          <div>
            <dt>{t('detail.status')}</dt>
            <dd>{r.active ? t('list.active') : t('list.inactiveWhy')}</dd>
          </div>
        </dl>
      )}
    </section>
  );
}
