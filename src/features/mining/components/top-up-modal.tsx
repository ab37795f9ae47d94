// Top Up Balance (spec §2, decisions §8): 50 Gems for 4.99 USD, paid with tether, sbp or card
// (a labelled radio group of tiles). Pay Now creates the order; with the test provider it is paid
// at once and the Gems arrive. A provider that pays outside the app gives a checkout link. No
// provider: 503, "Payments are not available".
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PAYMENT_METHODS, TOP_UP_ITEM, type PaymentMethod } from '@shared/constants';
import type { PaymentOrder } from '@shared/api/payments';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { useCurrentUser } from '@/lib/current-user';
import { backModal, closeModal, useModalState } from '@/lib/modal-state';
import { formatInteger, formatPrice } from '../lib/format';
import { miningFailure } from '../lib/mining-errors';
import { topUp } from '../state/mining-actions';
import './mining.css';

export default function TopUpModal() {
  const { t, i18n } = useTranslation('mining');
  const lang = i18n.language;
  const { previous } = useModalState();
  const user = useCurrentUser();
  const name = useId();
  const [method, setMethod] = useState<PaymentMethod>('card');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [order, setOrder] = useState<PaymentOrder | null>(null);

  const pay = async () => {
    setBusy(true);
    setError(null);
    try {
      setOrder(await topUp(method));
    } catch (err) {
      setError(miningFailure(err, 'topUp', t).text);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title={t('topUp.title')} onClose={closeModal} onBack={previous ? backModal : undefined}>
      <div className="mining-offer">
        <span className="mining-offer__price">{t('topUp.item', { gems: TOP_UP_ITEM.gems })}</span>
        <span className="mining-offer__period">{formatPrice(TOP_UP_ITEM.price_usd, lang)}</span>
      </div>

      {order?.status === 'paid' ? (
        <>
          <p className="mining-notice mining-notice--ok" role="status">
            {t('topUp.paid', { gems: order.gems, balance: formatInteger(user?.gems ?? 0, lang) })}
          </p>
          <div className="modal-actions">
            <Button block onClick={previous ? backModal : closeModal}>
              {previous ? t('topUp.continue') : t('topUp.close')}
            </Button>
          </div>
        </>
      ) : order?.checkout_url ? (
        <>
          <p className="mining-notice mining-notice--warn" role="status">
            {t('topUp.finish')}
          </p>
          <div className="modal-actions">
            <a className="btn btn--primary btn--block" href={order.checkout_url}>
              {t('topUp.checkout')}
            </a>
          </div>
        </>
      ) : (
        <>
          <fieldset className="mining-methods">
            <legend>{t('topUp.method')}</legend>
            <div className="mining-methods__tiles">
              {PAYMENT_METHODS.map((m) => (
                <label key={m} className="mining-method">
                  <input type="radio" name={name} value={m} checked={method === m} onChange={() => setMethod(m)} />
                  <span className="mining-method__tile">
                    <span className={`mining-method__icon mining-method__icon--${m}`} aria-hidden="true" />
                    <span>{t(`topUp.methods.${m}`)}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <div className="modal-actions">
            <Button block onClick={pay} loading={busy}>
              {t('topUp.pay')}
            </Button>
          </div>
        </>
      )}
      {error && (
        <p className="modal-error" role="alert">
          {error}
        </p>
      )}
    </Modal>
  );
}
