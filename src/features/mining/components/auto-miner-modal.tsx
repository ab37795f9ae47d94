// Auto Miner subscribe (spec §2, decisions §6): 150 Gems for 30 days; the server then claims each
// finished session and starts the next one. Without enough Gems the dialog says so and offers the
// top-up of exactly the missing Gems in one order, which subscribes once paid. After a subscribe the session list is refreshed (spec §4).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AUTO_MINER_DAYS, AUTO_MINER_PRICE_GEMS, TOP_UP_ITEM } from '@shared/constants';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { useCurrentUser } from '@/lib/current-user';
import { closeModal, switchModal } from '@/lib/modal-state';
import { formatDateTime, formatInteger } from '../lib/format';
import { miningFailure } from '../lib/mining-errors';
import { autoMinerUntil } from '../lib/session-view';
import { quantityFor } from '../lib/top-up-view';
import { subscribe } from '../state/mining-actions';
import { useSubscriptions } from '../state/mining-data';
import './mining.css';

export default function AutoMinerModal() {
  const { t, i18n } = useTranslation('mining');
  const lang = i18n.language;
  const user = useCurrentUser();
  const subscriptions = useSubscriptions();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [refusedForGems, setRefusedForGems] = useState(false);
  const [until, setUntil] = useState<Date | null>(null);

  const gems = user?.gems ?? 0;
  const short = refusedForGems || (user !== undefined && gems < AUTO_MINER_PRICE_GEMS);
  // Decisions §8: exactly the missing Gems in ONE order, and the subscription once it is paid.
  const buyQuantity = quantityFor(AUTO_MINER_PRICE_GEMS - gems);
  const activeUntil = subscriptions ? autoMinerUntil(subscriptions, Date.now()) : null;

  const onSubscribe = async () => {
    setBusy(true);
    setError(null);
    try {
      setUntil(await subscribe());
    } catch (err) {
      const f = miningFailure(err, 'autoMiner', t);
      // Spec §8: 'Failed to subscribe auto-mining' is only logged; a refusal the player can act on is shown.
      console.warn(t('errors.autoMiner'), err);
      if (f.code === 'not_enough_gems') setRefusedForGems(true);
      else if (f.network || f.code) setError(f.text);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title={t('autoMiner.title')} description={t('autoMiner.description')} onClose={closeModal}>
      <div className="mining-offer">
        <span className="mining-offer__price">{t('autoMiner.price', { price: AUTO_MINER_PRICE_GEMS })}</span>
        <span className="mining-offer__period">{t('autoMiner.period', { days: AUTO_MINER_DAYS })}</span>
      </div>
      <p className="mining-hint mining-center" data-testid="auto-miner-gems">
        {t('autoMiner.balance', { gems: formatInteger(gems, lang) })}
      </p>
      {activeUntil && !until && (
        <p className="mining-hint mining-center">
          {t('autoMiner.extends', { date: formatDateTime(activeUntil, lang), days: AUTO_MINER_DAYS })}
        </p>
      )}

      {until ? (
        <>
          <p className="mining-notice mining-notice--ok" role="status">
            {t('autoMiner.done', { date: formatDateTime(until, lang) })}
          </p>
          <div className="modal-actions">
            <Button block onClick={closeModal}>
              {t('autoMiner.close')}
            </Button>
          </div>
        </>
      ) : short ? (
        <>
          <p className="mining-notice" role="status" data-testid="auto-miner-progress">
            {t('autoMiner.progress', {
              gems: formatInteger(gems, lang),
              price: AUTO_MINER_PRICE_GEMS,
              missing: formatInteger(AUTO_MINER_PRICE_GEMS - gems, lang),
            })}
          </p>
          <p className="mining-hint mining-center">
            {t('autoMiner.buyHint', { quantity: buyQuantity, item: TOP_UP_ITEM.gems })}
          </p>
          <div className="modal-actions">
            <Button block onClick={() => switchModal('topUp', { quantity: String(buyQuantity), intent: 'autoMiner' })}>
              {t('autoMiner.buyMissing', {
                count: buyQuantity * TOP_UP_ITEM.gems,
                gems: formatInteger(buyQuantity * TOP_UP_ITEM.gems, lang),
              })}
            </Button>
          </div>
        </>
      ) : (
        <div className="modal-actions">
          <Button block onClick={onSubscribe} loading={busy}>
            {t('autoMiner.subscribe')}
          </Button>
        </div>
      )}
      {error && (
        <p className="modal-error" role="alert">
          {error}
        </p>
      )}
    </Modal>
  );
}
