// What the miner shows about the player's sessions, derived purely from the stored rows and a clock
// (so it keeps working offline and is unit-tested). Spec §4: the current session is the first
// unclaimed session of the newest-first list, otherwise none.
import type { MiningSession, SessionBoost, Subscription } from '@shared/api/mining';
import { TOKEN_SCALE } from '@shared/constants';
import {
  chainBoosts,
  chainStart,
  planBoost,
  rewardEarnedBy,
  sessionReward,
  type RewardInput,
} from '@shared/mining-math';

export type MinerStatus = 'idle' | 'running' | 'ready';

const ms = (iso: string) => Date.parse(iso);

/** Newest first, as the server lists them. */
export const sortSessions = (sessions: readonly MiningSession[]) =>
  [...sessions].sort((a, b) => ms(b.started_at) - ms(a.started_at) || b.id - a.id);

export function currentSession(sessions: readonly MiningSession[]): MiningSession | null {
  return sortSessions(sessions).find((s) => !s.claimed) ?? null;
}

/** The last claimed session (what the previous claim paid). */
export function lastClaimed(sessions: readonly MiningSession[]): MiningSession | null {
  return sortSessions(sessions).find((s) => s.claimed) ?? null;
}

export function minerStatus(session: MiningSession | null, now: number): MinerStatus {
  if (!session || session.claimed) return 'idle';
  return now < ms(session.ends_at) ? 'running' : 'ready';
}

export const remainingMs = (session: MiningSession, now: number) => Math.max(0, ms(session.ends_at) - now);

/** Share of the session already run, 0..1. */
export function progress(session: MiningSession, now: number): number {
  const total = ms(session.ends_at) - ms(session.started_at);
  if (!(total > 0)) return 1;
  return Math.min(1, Math.max(0, (now - ms(session.started_at)) / total));
}

/** The 2x boost running at `now`, if any. */
export function activeBoost(session: MiningSession | null, now: number): SessionBoost | null {
  if (!session || session.claimed) return null;
  return session.temporary_boosts.find((b) => ms(b.starts_at) <= now && now < ms(b.ends_at)) ?? null;
}

/** PXT per hour right now: the session's rate, times the running temporary boost. */
export function currentRate(session: MiningSession | null, now: number, idleRate: number): number {
  if (!session || minerStatus(session, now) !== 'running') return idleRate;
  return session.rate_per_hour * (activeBoost(session, now)?.value ?? 1);
}

function rewardInput(session: MiningSession): RewardInput {
  return {
    startedAt: ms(session.started_at),
    endsAt: ms(session.ends_at),
    boostPercent: session.boost_percent,
    boosts: session.temporary_boosts.map((b) => ({ startsAt: ms(b.starts_at), endsAt: ms(b.ends_at), value: b.value })),
  };
}

/** PXT earned by `now` (the live projection), with the server's own arithmetic. */
export const earnedSoFar = (session: MiningSession, now: number) =>
  rewardEarnedBy(rewardInput(session), now) / TOKEN_SCALE;

/** PXT the whole session pays with the boosts applied so far (equals the server's `reward`). */
export const sessionPays = (session: MiningSession) => sessionReward(rewardInput(session)) / TOKEN_SCALE;

/**
 * Where a boost applied now would land, as the server places it (after the boosts already applied,
 * clipped at the session end). Used offline, when the server cannot be asked.
 */
export function planBoostNow(session: MiningSession, durationSeconds: number, now: number) {
  const input = rewardInput(session);
  return planBoost(input, chainStart(input, input.boosts, now), durationSeconds * 1000);
}

/** The end of the Auto Miner's paid time (periods follow one another), or null when none is active. */
export function autoMinerUntil(subscriptions: readonly Subscription[], now: number): Date | null {
  const ends = subscriptions.filter((s) => s.active && ms(s.expires_at) > now).map((s) => ms(s.expires_at));
  return ends.length ? new Date(Math.max(...ends)) : null;
}

/**
 * PXT a session started now would pay, with the 2x boosts selected for it (they run one after
 * another from the start, clipped at its end, as the server applies them at Start).
 */
export function selectedBoostsPay(
  boostPercent: number,
  sessionSeconds: number,
  selected: readonly { seconds: number; value: number }[],
): number {
  const span = { startedAt: 0, endsAt: sessionSeconds * 1000 };
  const valid = selected.filter((b) => b.seconds > 0);
  const planned = chainBoosts(
    span,
    0,
    valid.map((b) => b.seconds * 1000),
  );
  const boosts = planned.map((p, i) => ({ startsAt: p.startsAt, endsAt: p.endsAt, value: valid[i].value }));
  return sessionReward({ ...span, boostPercent, boosts }) / TOKEN_SCALE;
}
