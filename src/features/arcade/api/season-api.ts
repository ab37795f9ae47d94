// The arcade season's calls: GET arcade/season/ into Dexie `season` (key 'current'; value null when
// no season runs) and POST arcade/claim/ {tier}, whose answer carries the season after the claim.
import type { ClaimTierResponse, SeasonJson } from '../../../../shared/api/arcade';
import { api } from '../../../lib/api-client';
import { toApiFailure } from '../../../lib/api-errors';
import { refreshCurrentUser } from '../../../lib/current-user';
import { db } from '../../../lib/db';

export const SEASON_KEY = 'current';

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

/** Claims a tier's reward; the coins, Gems or boost it pays show in the refreshed user record. */
export async function claimTier(tier: number): Promise<ClaimTierResponse> {
  const answer = await api<ClaimTierResponse>('arcade/claim/', { method: 'POST', body: { tier } });
  await store(answer.season);
  await refreshCurrentUser();
  return answer;
}
