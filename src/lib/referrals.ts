// The player's referrals, shared by the referrals page (list, awards) and the tasks page (invite
// quest progress and claims): GET referrals/ → Dexie `referrals` (read with useLiveQuery), and the
// award claim GET referrals/add-reward/. Only lazy pages import this (it loads Dexie).
import type { Referral } from '@shared/api/referrals';
import type { AddReferralReward } from '@shared/api/tasks';
import { api } from './api-client';
import { refreshCurrentUser } from './current-user';
import { db } from './db';

export type ReferralRow = Referral & { [field: string]: unknown };

/** Fetches the list and replaces the stored one (a referral never disappears, but the list is whole). */
export async function refreshReferrals(): Promise<Referral[]> {
  const list = await api<Referral[]>('referrals/');
  await db.transaction('rw', db.referrals, async () => {
    await db.referrals.clear();
    await db.referrals.bulkPut(list.map((r) => ({ ...r })));
  });
  return list;
}

/**
 * Friends who count for awards and invite quests (decisions §12): those the server marks active.
 * A row stored before the server sent the mark counts as not active until the next refresh.
 */
export const isActiveReferral = (row: { active?: unknown }) => row.active === true;

/** How many stored friends are active (for useLiveQuery). */
export const storedActiveReferralCount = () =>
  db.referrals.filter((row) => isActiveReferral(row as ReferralRow)).count();

/** The stored list, newest first (for useLiveQuery). */
export async function storedReferrals(): Promise<ReferralRow[]> {
  const rows = (await db.referrals.toArray()) as ReferralRow[];
  return rows.sort((a, b) => b.joined_at.localeCompare(a.joined_at) || Number(b.id) - Number(a.id));
}

/** Pays every referral award reached and not paid yet; the balance is refreshed after a payment. */
export async function claimReferralAwards(): Promise<AddReferralReward> {
  const answer = await api<AddReferralReward>('referrals/add-reward/');
  if (answer.reward > 0) await refreshCurrentUser();
  return answer;
}
