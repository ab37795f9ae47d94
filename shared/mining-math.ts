// Mining arithmetic (decisions §6), pure so it can be tested on its own and used identically by the
// routes, the Auto Miner worker and the client (which projects what a running session will pay).
// Times are epoch milliseconds, rewards integer PXT millionths.
//
// Reward = base × (1 + boosts) × (session hours + boosted hours inside the session × (value − 1)).
// It is computed exactly in integers (BigInt: 1e6 × 300 % × 16 h in ms already passes 2^53) and
// rounded DOWN to a whole millionth once, at the end: the ledger holds integer millionths, rounding
// down never pays a fraction that was not earned, and the same inputs always give the same number
// whether the client projects it or the server pays it.
import {
  BASE_RATE_PER_HOUR,
  REFERRAL_BOOST_CAP_PERCENT,
  REFERRAL_BOOST_PERCENT,
  TASK_BOOST_PERCENT,
  TOKEN_SCALE,
} from './constants';

const HOUR_MS = 3_600_000;

export interface RatePercents {
  taskPercent: number;
  /** Already capped at REFERRAL_BOOST_CAP_PERCENT. */
  referralPercent: number;
  totalPercent: number;
}

/** The rate boost a player has: 5 % per rewarded task, 10 % per rewarded referral (capped at 100 %). */
export function ratePercents(taskBoosts: number, referralBoosts: number): RatePercents {
  const taskPercent = Math.max(0, taskBoosts) * TASK_BOOST_PERCENT;
  const referralPercent = Math.min(Math.max(0, referralBoosts) * REFERRAL_BOOST_PERCENT, REFERRAL_BOOST_CAP_PERCENT);
  return { taskPercent, referralPercent, totalPercent: taskPercent + referralPercent };
}

/** PXT per hour before temporary boosts, for display (e.g. 1.15). */
export function ratePerHour(boostPercent: number): number {
  return (BASE_RATE_PER_HOUR * (100 + boostPercent)) / 100;
}

export interface SessionSpan {
  startedAt: number;
  endsAt: number;
}

export interface BoostSpan {
  startsAt: number;
  endsAt: number;
  value: number;
}

export interface PlannedBoost {
  startsAt: number;
  /** Clipped to the session end: time past it expires unused. */
  endsAt: number;
  /** Milliseconds of the boost inside the session. */
  insideMs: number;
  /** Share of the boost's duration that falls inside the session, rounded to a whole percent. */
  efficiencyPercent: number;
}

/**
 * Where the next boost applied to a session starts: after the last boost already applied (boosts
 * run one after another, never overlapping), and not before now or the session start.
 */
export function chainStart(session: SessionSpan, applied: readonly BoostSpan[], now: number): number {
  return applied.reduce((at, b) => Math.max(at, b.endsAt), Math.max(now, session.startedAt));
}

/** Places one boost of `durationMs` starting at `from`, clipped to the session end. */
export function planBoost(session: SessionSpan, from: number, durationMs: number): PlannedBoost {
  if (!(durationMs > 0)) throw new Error(`boost duration must be positive, got ${durationMs}`);
  const startsAt = Math.min(Math.max(from, session.startedAt), session.endsAt);
  const endsAt = Math.min(startsAt + durationMs, session.endsAt);
  const insideMs = endsAt - startsAt;
  return { startsAt, endsAt, insideMs, efficiencyPercent: Math.round((insideMs * 100) / durationMs) };
}

/** Places several boosts one after another from `from`, in the order given. */
export function chainBoosts(session: SessionSpan, from: number, durationsMs: readonly number[]): PlannedBoost[] {
  const out: PlannedBoost[] = [];
  let at = from;
  for (const d of durationsMs) {
    const p = planBoost(session, at, d);
    out.push(p);
    at = p.endsAt;
  }
  return out;
}

/**
 * Boosted milliseconds inside the session, weighted by (value − 1). Stored boosts never overlap,
 * but the sum is taken over their union anyway (an earlier boost wins an overlap) so that no data
 * can ever pay more than every second boosted once.
 */
function extraBoostedMs(session: SessionSpan, boosts: readonly BoostSpan[]): bigint {
  const sorted = [...boosts].sort((a, b) => a.startsAt - b.startsAt || a.endsAt - b.endsAt);
  let covered = session.startedAt;
  let extra = 0n;
  for (const b of sorted) {
    const start = Math.max(b.startsAt, covered, session.startedAt);
    const end = Math.min(b.endsAt, session.endsAt);
    if (end <= start) continue;
    extra += BigInt(end - start) * BigInt(Math.max(0, b.value - 1));
    covered = end;
  }
  return extra;
}

export interface RewardInput extends SessionSpan {
  /** task % + referral % fixed when the session started. */
  boostPercent: number;
  boosts: readonly BoostSpan[];
}

/** The session's reward in PXT millionths, rounded down. */
export function sessionReward(input: RewardInput): number {
  if (!Number.isInteger(BASE_RATE_PER_HOUR) || !Number.isInteger(input.boostPercent)) {
    throw new Error('mining rates must be whole numbers for exact arithmetic');
  }
  const sessionMs = BigInt(Math.max(0, input.endsAt - input.startedAt));
  const weightedMs = sessionMs + extraBoostedMs(input, input.boosts);
  const numerator = BigInt(BASE_RATE_PER_HOUR) * BigInt(TOKEN_SCALE) * BigInt(100 + input.boostPercent) * weightedMs;
  return Number(numerator / (100n * BigInt(HOUR_MS)));
}

/**
 * What the session has earned by `at`, in millionths rounded down: the reward of the same session
 * cut short at `at`. The client shows it ticking up; at `endsAt` it equals `sessionReward`.
 */
export function rewardEarnedBy(input: RewardInput, at: number): number {
  const endsAt = Math.min(input.endsAt, Math.max(input.startedAt, at));
  return sessionReward({ ...input, endsAt });
}
