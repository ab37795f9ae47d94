// How many active friends' referral boosts wait to be claimed on /boost, for pages outside mining
// (the referrals page) that point the player there.
import type { BoostsResponse } from '@shared/api/mining';
import { api } from './api-client';

export async function fetchWaitingReferralBoosts(): Promise<number> {
  const answer = await api<BoostsResponse>('mining/boosts/');
  return answer.referral_waiting ?? 0;
}
