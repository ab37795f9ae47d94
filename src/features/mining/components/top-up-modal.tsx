// Top Up Balance (spec §2, decisions §8): 50 Gems for 4.99 USD a piece, paid with tether, sbp or
// card. The methods come from GET /payments/items/ (the ones this server cannot take are shown
// disabled, with the reason). Pay creates the order, then card and sbp go to the provider's page
// (which returns to /miner?order={id}) and tether asks the linked wallet for the USDT transfer and
// follows its confirmations. An open order (this or another device) is shown when the dialog opens.
// Offline, Pay is disabled: payments are never queued.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PaymentItemsResponse, PaymentOrder } from '@shared/api/payments';
import { TOP_UP_ITEM, type PaymentMethod } from '@shared/constants';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { Spinner } from '@/components/spinner';
import { useCurrentUser } from '@/lib/current-user';
import { backModal, closeModal, switchModal, useModalState } from '@/lib/modal-state';
import { fetchPaymentItems } from '../api/payments-api';
import { formatPrice } from '../lib/format';
import { paymentFailureText } from '../lib/payment-errors';
import { isOpenOrder, methodOptions, orderTotalUsd, parseQuantity, payBlock, pickMethod } from '../lib/top-up-view';
import { useOnline } from '../state/hooks';
import {
  createOrder,
  loadOpenOrder,
  payWithWallet,
  withRememberedTx,
  type OrderIntent,
} from '../state/payment-actions';
import { useFollowedOrder } from '../state/use-followed-order';
import { OrderStatus } from './order-status';
import { TopUpForm } from './top-up-form';
import './mining.css';

export default function TopUpModal() {
  const { t, i18n } = useTranslation('mining');
  const lang = i18n.language;
  const { previous, params } = useModalState();
  const user = useCurrentUser();
  const online = useOnline();
  const intent: OrderIntent | undefined = params.intent === 'autoMiner' ? 'autoMiner' : undefined;
  const [items, setItems] = useState<PaymentItemsResponse | null>(null);
  const [chosen, setChosen] = useState<PaymentMethod | null>(null);
  const [quantity, setQuantity] = useState(() => parseQuantity(params.quantity));
  const [busy, setBusy] = useState(false);
  const [paying, setPaying] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [needWallet, setNeedWallet] = useState(false);
  const follow = useFollowedOrder(t);
  const { followed, setFollowed } = follow;

  const load = useCallback(async () => {
    setError(null);
    const [itemsResult, openResult] = await Promise.allSettled([fetchPaymentItems(), loadOpenOrder()]);
    if (itemsResult.status === 'fulfilled') setItems(itemsResult.value);
    else setError(paymentFailureText(itemsResult.reason, t));
    if (openResult.status === 'fulfilled' && openResult.value) {
      const open = openResult.value;
      setFollowed({ order: open, confirmations: open.confirmations, required: null });
    }
  }, [t, setFollowed]);

  useEffect(() => {
    void load();
  }, [load]);

  const options = useMemo(() => methodOptions(items), [items]);
  const method = pickMethod(options, chosen);
  const block = payBlock(online, options, method, items !== null, Boolean(user?.wallet_address));
  const testPayment = method !== null && (items?.test_methods ?? []).includes(method);
  // The header tells what this order buys (issue 24: not the single item's price over a larger order).
  const headerGems = followed ? followed.order.gems : quantity * TOP_UP_ITEM.gems;
  const headerPrice = followed ? followed.order.price_usd : orderTotalUsd(quantity);

  const payTether = async (order: PaymentOrder) => {
    if (!user?.wallet_address) {
      setNeedWallet(true);
      return;
    }
    setPaying(true);
    setError(null);
    try {
      setFollowed(await payWithWallet(order, user.wallet_address));
    } catch (err) {
      setError(paymentFailureText(err, t));
      // Sent, but the server's answer was lost or refused for now: follow that transfer, never ask twice.
      setFollowed({ order: withRememberedTx(order), confirmations: null, required: null });
    } finally {
      setPaying(false);
    }
  };

  const pay = async () => {
    if (!method || block) return;
    setError(null);
    // USDT comes from the linked wallet only: link one before an order is made.
    if (method === 'tether' && !user?.wallet_address) {
      setNeedWallet(true);
      return;
    }
    setBusy(true);
    let created;
    try {
      created = await createOrder(method, quantity, intent);
    } catch (err) {
      setError(paymentFailureText(err, t));
      setBusy(false);
      return;
    }
    setBusy(false);
    setFollowed(created);
    const { order } = created;
    if (!isOpenOrder(order)) return;
    if (order.checkout_url) window.location.assign(order.checkout_url);
    else if (order.method === 'tether') await payTether(order);
  };

  const done = previous && !follow.subscribedUntil ? backModal : closeModal;
  const shownError = error ?? follow.error ?? follow.subscribeError;

  return (
    <Modal title={t('topUp.title')} onClose={closeModal} onBack={previous ? backModal : undefined}>
      <div className="mining-offer">
        <span className="mining-offer__price" data-testid="top-up-gems">
          {t('topUp.item', { gems: headerGems })}
        </span>
        <span className="mining-offer__period" data-testid="top-up-price">
          {formatPrice(headerPrice, lang)}
        </span>
      </div>

      {needWallet && !user?.wallet_address ? (
        <>
          <p className="mining-notice mining-notice--warn" role="status">
            {t('topUp.linkWallet')}
          </p>
          <div className="modal-actions">
            <Button block onClick={() => switchModal('connectWallet')}>
              {t('topUp.linkWalletButton')}
            </Button>
            <Button block variant="ghost" onClick={() => setNeedWallet(false)}>
              {t('topUp.otherMethod')}
            </Button>
          </div>
        </>
      ) : followed ? (
        <>
          <OrderStatus
            followed={followed}
            balance={user?.gems ?? 0}
            onPayWallet={online ? () => void payTether(followed.order) : undefined}
            paying={paying}
            onRetry={() => setFollowed(null)}
            subscribedUntil={follow.subscribedUntil}
          />
          {followed.order.status === 'paid' ? (
            <div className="modal-actions">
              <Button block onClick={done}>
                {done === backModal ? t('topUp.continue') : t('topUp.close')}
              </Button>
            </div>
          ) : (
            isOpenOrder(followed.order) && (
              <div className="modal-actions">
                <Button block variant="ghost" onClick={() => setFollowed(null)}>
                  {t('topUp.newOrder')}
                </Button>
              </div>
            )
          )}
        </>
      ) : (
        <>
          {intent && <p className="mining-hint mining-center">{t('topUp.forAutoMiner')}</p>}
          {!items && !error && (
            <p className="mining-center">
              <Spinner label={t('topUp.loading')} />
            </p>
          )}
          <TopUpForm
            options={options}
            method={method}
            onMethod={setChosen}
            quantity={quantity}
            onQuantity={setQuantity}
            block={block}
            busy={busy || paying}
            onPay={() => void pay()}
            testPayment={testPayment}
            onLinkWallet={() => switchModal('connectWallet')}
          />
        </>
      )}
      {shownError && (
        <p className="modal-error" role="alert">
          {shownError}
        </p>
      )}
    </Modal>
  );
}
