// /mining, the mining shop: 2x temporary boosts for Gems (GET /mining/shop/, POST /mining/shop/buy/),
// how many of each the player owns (GET /assets/list/) with one boost's detail
// (GET /assets/detail/{id}/), and the Gems balance with the top-up.
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TEMP_BOOST_VALUE } from '@shared/constants';
import { Button } from '@/components/button';
import { Spinner } from '@/components/spinner';
import { useCurrentUser } from '@/lib/current-user';
import { openModal } from '@/lib/modal-state';
import { fetchAssetDetail } from '../api/mining-api';
import { miningFailure } from '../lib/mining-errors';
import { assetsState } from '../state/assets-state';
import { useOnline } from '../state/hooks';
import { buy } from '../state/mining-actions';
import { refreshAssets, refreshShop, useAssets, useShopItems } from '../state/mining-data';
import { AssetDetailPanel } from './asset-detail';
import { Balances } from './balances';
import { MiningPageHead, MiningPageNotices } from './mining-page-head';
import { NoticeLine, type Notice } from './notice-line';
import './mining.css';

/** The outcome of a purchase, shown on the item that was tapped (`itemId`). */
type ShopNotice = (NonNullable<Notice> & { short?: boolean; itemId: string }) | null;

export function MiningShopPage() {
  const { t } = useTranslation('mining');
  const items = useShopItems();
  const assets = useAssets();
  const user = useCurrentUser();
  const online = useOnline();
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<ShopNotice>(null);
  const [loadErrors, setLoadErrors] = useState<string[]>([]);
  const assetList = useAtomValue(assetsState.atom).list;
  const noticeSlot = useRef<HTMLDivElement>(null);

  // On a phone the list is long: the outcome is brought into view where the tap was.
  useEffect(() => {
    if (notice) noticeSlot.current?.scrollIntoView?.({ block: 'nearest' });
  }, [notice]);

  useEffect(() => {
    document.title = `${t('shop.title')} · ${t('common:appTitle')}`;
  }, [t]);

  const load = useCallback(async () => {
    // The inventory's loading and error live in assetsState (spec §4), apart from its detail's.
    const [shop] = await Promise.allSettled([refreshShop(), assetsState.loadList(refreshAssets)]);
    const errors: string[] = [];
    if (shop.status === 'rejected' && !miningFailure(shop.reason, 'shop', t).network)
      errors.push(miningFailure(shop.reason, 'shop', t).text);
    setLoadErrors(errors);
  }, [t]);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => assetsState.clearDetail, []);

  const group = (durationSeconds: number) => assets?.find((g) => g.duration_seconds === durationSeconds);
  const owned = (durationSeconds: number) => group(durationSeconds)?.quantity ?? 0;
  // Offline, the offline line says why the stored inventory is shown.
  const errors = online && assetList.error ? [...loadErrors, assetList.error] : loadErrors;

  const onBuy = async (itemId: string, hours: number, price: number) => {
    setNotice(null);
    if (user && user.gems < price) {
      setNotice({ kind: 'error', text: t('shop.notEnough', { price }), short: true, itemId });
      return;
    }
    setBusy(itemId);
    try {
      await buy(itemId);
      setNotice({ kind: 'ok', text: t('shop.bought', { hours }), itemId });
    } catch (err) {
      const f = miningFailure(err, 'buy', t);
      setNotice({
        kind: 'error',
        text: f.code === 'not_enough_gems' ? t('shop.notEnough', { price }) : f.text,
        short: f.code === 'not_enough_gems',
        itemId,
      });
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="mining-page">
      <MiningPageHead
        kicker={t('shop.kicker')}
        title={t('shop.title')}
        lead={t('shop.lead', { value: TEMP_BOOST_VALUE })}
        actions={
          <Link className="btn btn--ghost" to="/miner">
            {t('shop.toMiner')}
          </Link>
        }
      />
      <MiningPageNotices errors={errors} outbox={undefined} />

      <div className="mining-grid mining-grid--shop">
        <section className="mining-card mining-shop" aria-labelledby="mining-shop-title">
          <h2 id="mining-shop-title" className="mining-card__title">
            {t('shop.itemsTitle')}
          </h2>
          {!online && <p className="mining-hint">{t('shop.offline')}</p>}
          {items == null ? (
            <Spinner label={t('shop.loading')} />
          ) : (
            <ul className="mining-shop__items">
              {items.map((item) => (
                <li key={item.id} className="mining-shop__item" data-testid={`shop-item-${item.hours}`}>
                  <span className="mining-shop__badge" aria-hidden="true">
                    {t('boostSelect.multiplier', { value: item.value })}
                  </span>
                  <h3 className="mining-shop__name">{t('shop.item', { hours: item.hours })}</h3>
                  <p className="mining-shop__price">{t('shop.price', { price: item.price_gems })}</p>
                  <p className="mining-hint" data-testid={`owned-${item.hours}`}>
                    {t('shop.owned', { count: owned(item.duration_seconds) })}
                  </p>
                  {owned(item.duration_seconds) > 0 && (
                    <Button
                      variant="link"
                      onClick={() =>
                        void assetsState.loadDetail(group(item.duration_seconds)!.boost_ids[0], fetchAssetDetail)
                      }
                      aria-label={t('assetDetail.open', { hours: item.hours })}
                    >
                      {t('assetDetail.openShort')}
                    </Button>
                  )}
                  <Button
                    block
                    onClick={() => void onBuy(item.id, item.hours, item.price_gems)}
                    loading={busy === item.id}
                    disabled={!online || (busy !== null && busy !== item.id)}
                    aria-label={t('shop.buyLabel', { hours: item.hours, price: item.price_gems })}
                  >
                    {t('shop.buy')}
                  </Button>
                  {notice?.itemId === item.id && (
                    <div className="mining-shop__outcome" ref={noticeSlot}>
                      <NoticeLine notice={notice}>
                        {notice.kind === 'ok' && user && (
                          <span data-testid="shop-gems-left">{t('shop.gemsLeft', { count: user.gems })}</span>
                        )}
                        {notice.short && (
                          <Button variant="link" onClick={() => openModal('topUp')}>
                            {t('wallet.topUp')}
                          </Button>
                        )}
                      </NoticeLine>
                    </div>
                  )}
                </li>
              ))}
            </ul>
          )}
          <p className="mining-hint">
            <Link to="/boost">{t('shop.useBoosts')}</Link>
          </p>
        </section>
        <Balances showPxt={false} />
        <AssetDetailPanel />
      </div>
    </div>
  );
}
