// The miner's pure view rules: current session (spec §4), status, live projection, boost placement
// offline, the Auto Miner's end, the boost stock, and the countdown/number formatting.
import { describe, expect, it } from 'vitest';
import type { MiningSession, Subscription } from '@shared/api/mining';
import { formatCountdown } from '@/features/mining/lib/format';
import { formatPxt } from '@/lib/format-pxt';
import {
  activeBoost,
  autoMinerUntil,
  currentRate,
  currentSession,
  earnedSoFar,
  lastClaimed,
  minerStatus,
  planBoostNow,
  progress,
  remainingMs,
  sessionPays,
  selectedBoostsPay,
} from '@/features/mining/lib/session-view';
import { tempBoostStock, type BoostRow } from '@/features/mining/state/mining-data';

const H = 3_600_000;
const T0 = Date.UTC(2026, 0, 10, 12);
const iso = (ms: number) => new Date(ms).toISOString();

function session(over: Partial<MiningSession> & { id: number; start?: number; hours?: number }): MiningSession {
  const start = over.start ?? T0;
  return {
    started_at: iso(start),
    ends_at: iso(start + (over.hours ?? 8) * H),
    claimed: false,
    claimed_at: null,
    rate_per_hour: 1,
    boost_percent: 0,
    reward: 8,
    temporary_boosts: [],
    ...over,
  };
}

describe('current session (spec §4)', () => {
  it('is the first unclaimed session of the newest-first list, otherwise none', () => {
    const old = session({ id: 1, start: T0 - 20 * H, claimed: true, reward: 8 });
    const open = session({ id: 2, start: T0 });
    expect(currentSession([old, open])?.id).toBe(2);
    expect(currentSession([open, old])?.id).toBe(2);
    expect(currentSession([old])).toBeNull();
    expect(currentSession([])).toBeNull();
    expect(lastClaimed([open, old])?.id).toBe(1);
  });
});

describe('miner status and countdown', () => {
  const s = session({ id: 1 });
  it('is idle without a session, running before ends_at, ready from ends_at', () => {
    expect(minerStatus(null, T0)).toBe('idle');
    expect(minerStatus({ ...s, claimed: true }, T0)).toBe('idle');
    expect(minerStatus(s, T0 + 8 * H - 1)).toBe('running');
    expect(minerStatus(s, T0 + 8 * H)).toBe('ready');
  });

  it('counts down to ends_at and never below zero', () => {
    expect(remainingMs(s, T0)).toBe(8 * H);
    expect(remainingMs(s, T0 + 9 * H)).toBe(0);
    expect(progress(s, T0 + 2 * H)).toBe(0.25);
    expect(progress(s, T0 + 9 * H)).toBe(1);
  });

  it('formats the countdown as HH:MM:SS, rounding up to whole seconds', () => {
    expect(formatCountdown(8 * H)).toBe('08:00:00');
    expect(formatCountdown(H + 61_000)).toBe('01:01:01');
    expect(formatCountdown(1)).toBe('00:00:01');
    expect(formatCountdown(0)).toBe('00:00:00');
    expect(formatCountdown(-5000)).toBe('00:00:00');
    expect(formatCountdown(30 * H)).toBe('30:00:00');
  });
});

describe('rate and live projection', () => {
  const boosted = session({
    id: 1,
    rate_per_hour: 1.1,
    boost_percent: 10,
    reward: 9.9,
    temporary_boosts: [{ boost_id: 5, starts_at: iso(T0 + H), ends_at: iso(T0 + 2 * H), value: 2 }],
  });

  it('shows the running 2x boost and doubles the current rate only while it runs', () => {
    expect(activeBoost(boosted, T0 + 0.5 * H)).toBeNull();
    expect(activeBoost(boosted, T0 + 1.5 * H)?.boost_id).toBe(5);
    expect(currentRate(boosted, T0 + 0.5 * H, 1)).toBe(1.1);
    expect(currentRate(boosted, T0 + 1.5 * H, 1)).toBe(2.2);
    expect(currentRate(null, T0, 1.15)).toBe(1.15);
    expect(currentRate(boosted, T0 + 9 * H, 1.15)).toBe(1.15);
  });

  it('projects what has been mined so far and what the session pays, as the server computes it', () => {
    expect(earnedSoFar(boosted, T0)).toBe(0);
    expect(earnedSoFar(boosted, T0 + 1.5 * H)).toBeCloseTo(1.1 + 1.1, 6);
    expect(earnedSoFar(boosted, T0 + 8 * H)).toBeCloseTo(9.9, 6);
    expect(sessionPays(boosted)).toBeCloseTo(9.9, 6);
  });

  it('places a boost offline as the server would: after the running ones, clipped at the end', () => {
    const late = planBoostNow(boosted, 3600, T0 + 7.5 * H);
    expect(late).toMatchObject({ startsAt: T0 + 7.5 * H, endsAt: T0 + 8 * H, efficiencyPercent: 50 });
    const chained = planBoostNow(boosted, 3600, T0 + 1.5 * H);
    expect(chained).toMatchObject({ startsAt: T0 + 2 * H, endsAt: T0 + 3 * H, efficiencyPercent: 100 });
  });

  it('formats PXT with exactly 6 decimals, live amounts included (src/lib/format-pxt.ts)', () => {
    expect(formatPxt(0, 'en')).toBe('0.000000');
    expect(formatPxt(1.234567, 'en')).toBe('1.234567');
    expect(formatPxt(0.5, 'en')).toBe('0.500000');
    expect(formatPxt(1.5, 'ru')).toBe('1,500000');
  });
});

describe('Auto Miner state', () => {
  const sub = (id: number, start: number, end: number, active: boolean): Subscription => ({
    id,
    price_gems: 150,
    started_at: iso(start),
    expires_at: iso(end),
    active,
  });
  it('runs until the end of the last active period, or not at all', () => {
    expect(autoMinerUntil([], T0)).toBeNull();
    expect(autoMinerUntil([sub(1, T0 - 40 * 24 * H, T0 - 10 * 24 * H, false)], T0)).toBeNull();
    const until = autoMinerUntil(
      [sub(1, T0, T0 + 30 * 24 * H, true), sub(2, T0 + 30 * 24 * H, T0 + 60 * 24 * H, true)],
      T0,
    );
    expect(until?.getTime()).toBe(T0 + 60 * 24 * H);
    expect(autoMinerUntil([sub(1, T0 - H, T0 + H, true)], T0 + 2 * H)).toBeNull();
  });
});

describe('temporary boost stock', () => {
  const row = (boostId: number, hours: number, over: Partial<BoostRow> = {}): BoostRow => ({
    id: `temporary:${boostId}`,
    boostId,
    kind: 'boost',
    boost_type: 'temporary',
    is_active: false,
    value: 2,
    is_selected: false,
    duration_seconds: hours * 3600,
    ...over,
  });
  it('counts unused boosts per duration, oldest first, and which are free to select', () => {
    const stock = tempBoostStock(
      [
        row(9, 1),
        row(3, 1, { is_selected: true }),
        row(4, 4),
        row(5, 4, { is_active: true }),
        { ...row(6, 0), id: 'task:6', boost_type: 'task', duration_seconds: null },
      ],
      [1, 4, 6, 12],
    );
    expect(stock.map((s) => [s.hours, s.ids, s.freeIds, s.selected])).toEqual([
      [1, [3, 9], [9], 1],
      [4, [4], [4], 0],
      [6, [], [], 0],
      [12, [], [], 0],
    ]);
  });
});

describe('boosts selected for the next session (issue 24)', () => {
  it('the estimate counts them from the start, one after another, clipped at the end', () => {
    const plain = selectedBoostsPay(0, 8 * 3600, []);
    expect(plain).toBeCloseTo(8, 6);
    // A 2 h 2x boost adds 2 h; two of them 4 h; a 12 h one covers the whole 8 h session.
    expect(selectedBoostsPay(0, 8 * 3600, [{ seconds: 7200, value: 2 }])).toBeCloseTo(10, 6);
    expect(
      selectedBoostsPay(0, 8 * 3600, [
        { seconds: 7200, value: 2 },
        { seconds: 7200, value: 2 },
      ]),
    ).toBeCloseTo(12, 6);
    expect(selectedBoostsPay(0, 8 * 3600, [{ seconds: 12 * 3600, value: 2 }])).toBeCloseTo(16, 6);
    // With +50 % from tasks and friends.
    expect(selectedBoostsPay(50, 8 * 3600, [{ seconds: 7200, value: 2 }])).toBeCloseTo(15, 6);
  });
});
