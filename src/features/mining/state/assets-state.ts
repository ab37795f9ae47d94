// Assets and subscriptions as spec §4 keeps them: list and detail (the current item) each with
// their own loading and error; spec §8 texts: assets read the answer's message, else the error's,
// else 'Unknown assets list error' / 'Unknown asset detail error'; subscriptions the detail, else
// the error's message, else 'Failed to load subscriptions' / 'Failed to load subscription'. An
// answer that never came (offline) has no message of its own: the stored list stays on screen and
// the offline line says why, so the list's error is the network text.
import type { AssetDetail, AssetGroup } from '@shared/api/assets';
import type { Subscription } from '@shared/api/mining';
import { toApiFailure } from '@/lib/api-errors';
import { i18n } from '@/lib/i18n';
import { listDetailStore } from '@/lib/list-detail-state';

/** The server's word (detail or message) unless it is a server fault, else the catalogue's fallback. */
export function loadFailureText(err: unknown, fallback: string): string {
  const f = toApiFailure(err, fallback);
  if (f.status === 0 && !f.body) return i18n.t('errors:network');
  return f.fromServer && !f.serverFault ? f.message : fallback;
}

export const assetsState = listDetailStore<AssetGroup[], AssetDetail>({
  list: (err) => loadFailureText(err, i18n.t('mining:errors.assets')),
  detail: (err) => loadFailureText(err, i18n.t('mining:errors.assetDetail')),
});

export const subscriptionsState = listDetailStore<Subscription[], Subscription>({
  list: (err) => loadFailureText(err, i18n.t('mining:errors.subscriptions')),
  detail: (err) => loadFailureText(err, i18n.t('mining:errors.subscription')),
});
