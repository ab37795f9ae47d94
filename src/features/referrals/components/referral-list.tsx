import { useTranslation } from 'react-i18next';
import { shortWallet } from '@shared/validation';
import { Button } from '@/components/button';
import { Spinner } from '@/components/spinner';
import { currentLanguage } from '@/lib/i18n';
import { isActiveReferral, type ReferralRow } from '@/lib/referrals';

interface Props {
  rows: ReferralRow[] | undefined;
  loading: boolean;
  error: string | null;
  onRetry: () => void;
  /** Opens a friend's detail (GET referrals/{id}/). */
  onOpen?: (id: number) => void;
}

/** The players who joined through the link (spec §3 referralList), with loading and error states. */
export function ReferralList({ rows, loading, error, onRetry, onOpen }: Props) {
  const { t } = useTranslation('referrals');
  const date = new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium' });
  const list = rows ?? [];

  return (
    <section className="ref-list" aria-labelledby="ref-list-title" aria-busy={loading || undefined}>
      <h2 id="ref-list-title">{t('list.title', { count: list.length })}</h2>
      <p className="ref-list__rule">{t('list.rule')}</p>
      {error && (
        <div className="ref-list__error" role="alert">
          <span>{error}</span>
          <Button variant="ghost" onClick={onRetry}>
            {t('list.retry')}
          </Button>
        </div>
      )}
      {loading && list.length === 0 ? (
        <div className="ref-list__loading">
          <Spinner label={t('list.loading')} />
        </div>
      ) : list.length === 0 ? (
        !error && <p className="ref-list__empty">{t('list.empty')}</p>
      ) : (
        <ul className="ref-list__items">
          {list.map((r) => {
            const active = isActiveReferral(r);
            const name = r.username || (r.wallet_address ? shortWallet(r.wallet_address) : t('list.noName'));
            return (
              <li
                key={r.id}
                className={`ref-list__item ${active ? 'ref-list__item--active' : 'ref-list__item--inactive'}`}
                data-testid="referral-row"
              >
                <span className="ref-list__avatar" aria-hidden="true" />
                <span className="ref-list__name">{name}</span>
                <span className="ref-list__date">{t('list.joined', { date: date.format(new Date(r.joined_at)) })}</span>
                <span className="ref-list__status">
                  <strong className="ref-list__badge">{active ? t('list.active') : t('list.inactive')}</strong>
                  {!active && <span className="ref-list__why">{t('list.inactiveWhy')}</span>}
                </span>
                {onOpen && (
                  <Button
                    variant="ghost"
                    className="ref-list__open"
                    onClick={() => onOpen(Number(r.id))}
                    aria-label={t('detail.open', { name })}
                  >
                    {t('list.details')}
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
