// What the mining buttons do: the call (through the outbox where the spec's offline rule applies),
// then the stored data refreshed from the network so every screen shows the result. Errors are
// thrown to the caller, which shows them (lib/mining-errors.ts).
import type { ApplyTempBoostResponse, MiningSession } from '@shared/api/mining';
import { refreshCurrentUser, refreshCurrentUserUnlessFresh, serverCurrentUser } from '@/lib/current-user';
import { db } from '@/lib/db';
import {
  applyTempBoost,
  buyShopItem,
  claimMining,
  selectTempBoost,
  startMining,
  subscribeAutoMiner,
} from '../api/mining-api';
import {
  refreshAssets,
  refreshBoosts,
  refreshMinerData,
  refreshSessions,
  refreshSubscriptions,
  storeSession,
  storeSubscriptions,
} from './mining-data';

export type Outcome<T> = { kind: 'done'; data: T } | { kind: 'queued' };

/** Refreshes in the background; a failure here leaves the stored state (the page shows its own load errors). */
const quietly = (...tasks: Promise<unknown>[]) => Promise.allSettled(tasks).then(() => undefined);

async function patchGems(gems: number): Promise<void> {
  await db.user.update('me', { gems });
}

export async function start(): Promise<Outcome<MiningSession>> {
  const r = await startMining();
  if (r.status === 'queued') return { kind: 'queued' };
  await storeSession(r.data.session);
  await quietly(refreshBoosts(), refreshSessions(), refreshAssets());
  return { kind: 'done', data: r.data.session };
}

/**
 * The PXT balance the server has now, for the reward moment to count into: what else was paid
 * since the page last read it (a referral reward, the operator) is in it too. `fallback` when it
 * cannot be read (offline, the cached record is the balance before).
 */
export async function balanceNow(fallback: number): Promise<number> {
  const me = await serverCurrentUser().catch(() => null);
  return me?.token ?? fallback;
}

/** The claim, and the balance after it (`balanceNow`, else the balance before plus the reward). */
export async function claim(balanceBefore: number): Promise<Outcome<MiningSession & { balanceAfter: number }>> {
  const r = await claimMining();
  if (r.status === 'queued') return { kind: 'queued' };
  await storeSession(r.data);
  const balanceAfter = balanceNow(balanceBefore + r.data.reward);
  await quietly(balanceAfter, refreshBoosts(), refreshSessions());
  return { kind: 'done', data: { ...r.data, balanceAfter: await balanceAfter } };
}

export async function selectBoost(boostId: number): Promise<Outcome<null>> {
  const r = await selectTempBoost(boostId);
  if (r.status === 'queued') return { kind: 'queued' };
  await quietly(refreshBoosts(), refreshAssets());
  return { kind: 'done', data: null };
}

export async function applyBoost(boostId: number, force: boolean): Promise<Outcome<ApplyTempBoostResponse>> {
  const r = await applyTempBoost(boostId, force);
  if (r.status === 'queued') return { kind: 'queued' };
  if (r.data.session) await storeSession(r.data.session);
  if (r.data.applied) await quietly(refreshBoosts(), refreshAssets(), refreshSessions());
  return { kind: 'done', data: r.data };
}

export async function buy(itemId: string): Promise<void> {
  const r = await buyShopItem(itemId);
  await patchGems(r.gems);
  await quietly(refreshAssets(), refreshBoosts(), refreshCurrentUser());
}

export async function subscribe(): Promise<Date> {
  const r = await subscribeAutoMiner();
  await patchGems(r.gems);
  if (r.session) await storeSession(r.session);
  // Spec §4: the session list is refreshed after the Auto Miner subscribe.
  await quietly(
    refreshSessions(),
    refreshSubscriptions().catch(() => storeSubscriptions([r.subscription])),
    refreshBoosts(),
    refreshCurrentUser(),
  );
  return new Date(r.subscription.expires_at);
}

/**
 * Everything the miner shows, refreshed from the network on page open and after a replay. When the
 * page opens (`opening`), a record of the player the app fetched a moment ago is not asked for again.
 */
export function refreshMiner(opening = false) {
  return { ...refreshMinerData(), user: opening ? refreshCurrentUserUnlessFresh() : refreshCurrentUser() };
}
