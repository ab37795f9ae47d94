// The mining, shop, Auto Miner, assets, subscriptions and top-up calls (spec §7, decisions §6 and
// §8). Types only from shared/api (zod stays server-side). The calls that must survive going
// offline (start, claim, boost select/apply) go through the outbox; spending Gems needs an answer
// now, so those calls are plain.
import type { AssetDetail, AssetGroup } from '@shared/api/assets';
import type {
  ApplyTempBoostResponse,
  AutoStartResponse,
  BoostsResponse,
  MiningSession,
  RewardReferralBoostResponse,
  SelectTempBoostResponse,
  SessionsPage,
  ShopBuyResponse,
  ShopResponse,
  StartMiningResponse,
  Subscription,
} from '@shared/api/mining';
import type { TopUpResponse } from '@shared/api/payments';
import { TOP_UP_ITEM, type PaymentMethod } from '@shared/constants';
import { api } from '@/lib/api-client';
import { sendOrQueue } from '@/lib/outbox';

/** Enough sessions for the current one and the recent history. */
const SESSIONS_PAGE_SIZE = 20;

export const fetchSessions = () =>
  api<SessionsPage>('mining/sessions/', { query: { page: 1, page_size: SESSIONS_PAGE_SIZE } });
export const fetchBoosts = () => api<BoostsResponse>('mining/boosts/');
export const fetchShop = () => api<ShopResponse>('mining/shop/');
export const fetchAssets = () => api<AssetGroup[]>('assets/list/');
export const fetchSubscriptions = () => api<Subscription[]>('subscriptions/');
export const fetchAssetDetail = (id: string) => api<AssetDetail>(`assets/detail/${encodeURIComponent(id)}/`);
export const fetchSubscription = (id: string) => api<Subscription>(`subscriptions/${encodeURIComponent(id)}/`);

export const startMining = () => sendOrQueue<StartMiningResponse>({ method: 'GET', path: 'mining/start/' });
export const claimMining = () => sendOrQueue<MiningSession>({ method: 'GET', path: 'mining/claim/' });
export const selectTempBoost = (boostId: number) =>
  sendOrQueue<SelectTempBoostResponse>({
    method: 'POST',
    path: 'mining/select-temp-boost/',
    body: { boost_id: boostId },
  });
export const applyTempBoost = (boostId: number, forceApply: boolean) =>
  sendOrQueue<ApplyTempBoostResponse>({
    method: 'POST',
    path: 'mining/apply-temp-boost/',
    body: { boost_id: boostId, force_apply: forceApply },
  });

export const buyShopItem = (itemId: string) =>
  api<ShopBuyResponse>('mining/shop/buy/', { method: 'POST', body: { item_id: itemId } });
export const subscribeAutoMiner = () => api<AutoStartResponse>('mining/auto-start/', { method: 'POST' });
export const rewardReferralBoost = () => api<RewardReferralBoostResponse>('mining/reward-referral-boost/');
export const topUpGems = (method: PaymentMethod, quantity = 1) =>
  api<TopUpResponse>('payments/top-up/', { method: 'POST', body: { item_id: TOP_UP_ITEM.id, method, quantity } });

/** Outbox paths of the calls above, to show what is pending. */
export const OUTBOX_PATHS = {
  start: 'mining/start/',
  claim: 'mining/claim/',
  select: 'mining/select-temp-boost/',
  apply: 'mining/apply-temp-boost/',
} as const;
