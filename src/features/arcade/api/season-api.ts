// The arcade season's calls: GET arcade/season/ into Dexie `season` (key 'current'; value null when
// no season runs) and POST arcade/claim/ {tier}, whose answer carries the season after the claim.
// A claim made offline waits in the outbox (decisions §10) and is replayed with its key later.
import type { ClaimTierResponse, SeasonJson } from '@shared/api/arcade';
import { api } from '@/lib/api-client';
import { toApiFailure } from '@/lib/api-errors';
import { refreshCurrentUser } from '@/lib/current-user';
import { db } from '@/lib/db';
import { sendOrQueue, type SendResult } from '@/lib/outbox';

export const SEASON_KEY = 'current';
export const CLAIM_PATH = 'arcade/claim/';

const store = (value: SeasonJson | null) => db.season.put({ key: SEASON_KEY, value, fetchedAt: Date.now() });

export async function refreshSeason(): Promise<void> {
  try {
    await store(await api<SeasonJson>('arcade/season/'));
  } catch (err) {
    const failure = toApiFailure(err, '');
    if (failure.status === 404 && failure.code === 'no_active_season') {
      await store(null);
      return;
    }
    throw err;
  }
}

/**
 * Claims a tier's reward, or queues the claim when offline. Once sent, the season after the claim
 * is stored and the user record refreshed (the coins, Gems or boost it paid).
 */
export async function claimTier(tier: number): Promise<SendResult<ClaimTierResponse>> {
  const result = await sendOrQueue<ClaimTierResponse>({ method: 'POST', path: CLAIM_PATH, body: { tier } });
  if (result.status === 'sent') {
    await store(result.data.season);
    await refreshCurrentUser();
  }
  return result;
}
