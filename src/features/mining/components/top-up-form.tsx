// The Top Up dialog's choice (decisions §8): the three method tiles, the ones this server cannot
// take disabled with their reason; the quantity (one order for several items); and Pay, which says
// why it cannot be pressed (offline: payments need a connection and are never queued).
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { TOP_UP_ITEM, TOP_UP_QUANTITY_MAX, type PaymentMethod } from '@shared/constants';
import { Button } from '@/components/button';
import { formatPrice } from '../lib/format';
import { orderTotalUsd, type MethodOption, type PayBlock } from '../lib/top-up-view';

export interface TopUpFormProps {
  options: MethodOption[];
  method: PaymentMethod | null;
  onMethod: (m: PaymentMethod) => void;
  quantity: number;
  onQuantity: (q: number) => void;
  block: PayBlock;
  busy: boolean;
  onPay: () => void;
  /** The chosen method is served by the test provider: nothing is charged, the order is paid at once. */
  testPayment: boolean;
  onLinkWallet: () => void;
}

const QUANTITIES = Array.from({ length: TOP_UP_QUANTITY_MAX }, (_, i) => i + 1);

export function TopUpForm({
  options,
  method,
  onMethod,
  quantity,
  onQuantity,
  block,
  busy,
  onPay,
  testPayment,
  onLinkWallet,
}: TopUpFormProps) {
  const { t, i18n } = useTranslation('mining');
  const lang = i18n.language;
  const name = useId();
  const quantityId = useId();
  return (
    <>
      <fieldset className="mining-methods">
        <legend>{t('topUp.method')}</legend>
        <div className="mining-methods__tiles">
          {options.map((o) => {
            const reasonId = `${name}-${o.method}-reason`;
            return (
              <label key={o.method} className={`mining-method${o.available ? '' : ' mining-method--off'}`}>
                <input
                  type="radio"
                  name={name}
                  value={o.method}
                  checked={method === o.method}
                  disabled={!o.available}
                  aria-describedby={o.reason ? reasonId : undefined}
                  onChange={() => onMethod(o.method)}
                />
                <span className="mining-method__tile">
                  <span className={`mining-method__icon mining-method__icon--${o.method}`} aria-hidden="true" />
                  <span>{t(`topUp.methods.${o.method}`)}</span>
                  {o.reason && (
                    <span id={reasonId} className="mining-method__reason" data-testid={`method-reason-${o.method}`}>
                      {t(`topUp.unavailable.${o.reason === 'not_configured' ? 'not_configured' : 'other'}`)}
                    </span>
                  )}
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>
      <div className="mining-quantity">
        <label htmlFor={quantityId}>{t('topUp.quantity')}</label>
        <select id={quantityId} value={quantity} onChange={(e) => onQuantity(Number(e.target.value))}>
          {QUANTITIES.map((q) => (
            <option key={q} value={q}>
              {t('topUp.quantityOption', { n: q, item: TOP_UP_ITEM.gems })}
            </option>
          ))}
        </select>
        <span className="mining-hint" data-testid="top-up-total">
          {t('topUp.total', {
            gems: quantity * TOP_UP_ITEM.gems,
            price: formatPrice(orderTotalUsd(quantity), lang),
          })}
        </span>
      </div>
      {testPayment && block !== 'noWallet' && (
        <p className="mining-notice mining-notice--warn" data-testid="test-payment">
          {t('topUp.testPayment')}
        </p>
      )}
      {block === 'noWallet' ? (
        <>
          <p className="mining-notice mining-notice--warn" role="status" data-testid="top-up-wallet-needed">
            {t('topUp.linkWallet')}
          </p>
          <div className="modal-actions">
            <Button block onClick={onLinkWallet}>
              {t('topUp.linkWalletButton')}
            </Button>
          </div>
        </>
      ) : (
        <div className="modal-actions">
          <Button block onClick={onPay} loading={busy} disabled={block !== null}>
            {block === 'offline' ? t('topUp.offline') : t('topUp.pay')}
          </Button>
        </div>
      )}
    </>
  );
}
