// The player's PXT and Gems (last known record, so it shows offline too) with the Top Up button.
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { useCurrentUser } from '@/lib/current-user';
import { openModal } from '@/lib/modal-state';
import { formatGems, formatPxt } from '@/lib/format-pxt';

export function Balances({ showPxt = true }: { showPxt?: boolean }) {
  const { t, i18n } = useTranslation('mining');
  const user = useCurrentUser();
  const lang = i18n.language;
  return (
    <section className="mining-card mining-balances" aria-labelledby="mining-balances-title">
      <h2 id="mining-balances-title" className="mining-card__title">
        {t('wallet.title')}
      </h2>
      <dl className="mining-balances__list">
        {showPxt && (
          <div className="mining-balances__item mining-balances__item--pxt">
            <dt>{t('wallet.pxt')}</dt>
            <dd data-testid="balance-pxt">{user ? formatPxt(user.token, lang) : '—'}</dd>
          </div>
        )}
        <div className="mining-balances__item mining-balances__item--gems">
          <dt>{t('wallet.gems')}</dt>
          <dd data-testid="balance-gems">{user ? formatGems(user.gems, lang) : '—'}</dd>
        </div>
      </dl>
      <Button variant="secondary" block onClick={() => openModal('topUp')}>
        {t('wallet.topUp')}
      </Button>
    </section>
  );
}
