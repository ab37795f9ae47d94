import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chainBoosts,
  chainStart,
  planBoost,
  ratePercents,
  ratePerHour,
  rewardEarnedBy,
  sessionReward,
} from '@shared/mining-math';

const H = 3_600_000;
const T0 = Date.UTC(2025, 0, 1);
const eightHours = { startedAt: T0, endsAt: T0 + 8 * H };

describe('rate percents', () => {
  it('adds 5 % per task and 10 % per referral', () => {
    expect(ratePercents(3, 2)).toEqual({ taskPercent: 15, referralPercent: 20, totalPercent: 35 });
    expect(ratePercents(0, 0)).toEqual({ taskPercent: 0, referralPercent: 0, totalPercent: 0 });
  });

  it('caps the referral part at 100 % but not the task part', () => {
    expect(ratePercents(0, 10).referralPercent).toBe(100);
    expect(ratePercents(0, 11).referralPercent).toBe(100);
    expect(ratePercents(12, 50)).toEqual({ taskPercent: 60, referralPercent: 100, totalPercent: 160 });
  });

  it('shows the hourly rate', () => {
    expect(ratePerHour(0)).toBe(1);
    expect(ratePerHour(15)).toBe(1.15);
    expect(ratePerHour(100)).toBe(2);
  });
});

describe('placing temporary boosts', () => {
  it('places a boost that fits whole', () => {
    expect(planBoost(eightHours, T0, H)).toEqual({ startsAt: T0, endsAt: T0 + H, insideMs: H, efficiencyPercent: 100 });
  });

  it('clips a boost at the session end and reports the share inside', () => {
    const p = planBoost(eightHours, T0 + 7 * H, 4 * H);
    expect(p).toEqual({ startsAt: T0 + 7 * H, endsAt: T0 + 8 * H, insideMs: H, efficiencyPercent: 25 });
  });

  it('rounds the efficiency to a whole percent', () => {
    // 1 h of a 6 h boost inside: 16.67 % → 17; 2 h of 12 h: 16.67 % → 17; 1 ms short of all: 100.
    expect(planBoost(eightHours, T0 + 7 * H, 6 * H).efficiencyPercent).toBe(17);
    expect(planBoost(eightHours, T0 + 6 * H, 12 * H).efficiencyPercent).toBe(17);
    expect(planBoost(eightHours, T0 + 7 * H + 1, H).efficiencyPercent).toBe(100);
    expect(planBoost(eightHours, T0 + 7 * H + H / 2, H).efficiencyPercent).toBe(50);
  });

  it('gives nothing to a boost placed at or after the end', () => {
    expect(planBoost(eightHours, T0 + 8 * H, H)).toMatchObject({
      insideMs: 0,
      efficiencyPercent: 0,
      startsAt: T0 + 8 * H,
      endsAt: T0 + 8 * H,
    });
    expect(planBoost(eightHours, T0 + 9 * H, H)).toMatchObject({ insideMs: 0, efficiencyPercent: 0 });
  });

  it('never starts a boost before the session', () => {
    expect(planBoost(eightHours, T0 - H, H)).toMatchObject({ startsAt: T0, endsAt: T0 + H });
  });

  it('chains boosts one after another without overlap', () => {
    const plan = chainBoosts(eightHours, T0, [4 * H, H, 6 * H]);
    expect(plan.map((p) => [p.startsAt - T0, p.endsAt - T0, p.efficiencyPercent])).toEqual([
      [0, 4 * H, 100],
      [4 * H, 5 * H, 100],
      [5 * H, 8 * H, 50],
    ]);
  });

  it('starts the next boost after the last applied one, or now when that is later', () => {
    const applied = [{ startsAt: T0, endsAt: T0 + 2 * H, value: 2 }];
    expect(chainStart(eightHours, applied, T0 + H)).toBe(T0 + 2 * H);
    expect(chainStart(eightHours, applied, T0 + 3 * H)).toBe(T0 + 3 * H);
    expect(chainStart(eightHours, [], T0 - 5)).toBe(T0);
  });
});

describe('session reward', () => {
  const reward = (
    boostPercent: number,
    boosts: { startsAt: number; endsAt: number; value: number }[] = [],
    span = eightHours,
  ) => sessionReward({ ...span, boostPercent, boosts });

  it('pays 1 PXT per hour without boosts', () => {
    expect(reward(0)).toBe(8_000_000);
  });

  it('multiplies by 1 + rate boosts', () => {
    expect(reward(15)).toBe(9_200_000);
    expect(reward(160)).toBe(20_800_000);
  });

  it('adds (value − 1) × the boosted hours inside the session', () => {
    // (8 h + 1 h × 1) × 1.15 = 10.35 PXT
    expect(reward(15, [{ startsAt: T0, endsAt: T0 + H, value: 2 }])).toBe(10_350_000);
    // A whole session boosted pays double.
    expect(reward(0, [{ startsAt: T0, endsAt: T0 + 8 * H, value: 2 }])).toBe(16_000_000);
  });

  it('counts only the boost time inside the session', () => {
    expect(reward(0, [{ startsAt: T0 + 7 * H, endsAt: T0 + 19 * H, value: 2 }])).toBe(9_000_000);
    expect(reward(0, [{ startsAt: T0 - 4 * H, endsAt: T0 + H, value: 2 }])).toBe(9_000_000);
    expect(reward(0, [{ startsAt: T0 + 9 * H, endsAt: T0 + 10 * H, value: 2 }])).toBe(8_000_000);
  });

  it('never pays an overlap twice', () => {
    const overlapping = [
      { startsAt: T0, endsAt: T0 + 4 * H, value: 2 },
      { startsAt: T0 + 2 * H, endsAt: T0 + 6 * H, value: 2 },
    ];
    expect(reward(0, overlapping)).toBe(14_000_000);
  });

  it('rounds down to a whole millionth', () => {
    // 1 second at 1 PXT/h = 277.77… millionths → 277; at +5 %: 291.66… → 291.
    const oneSecond = { startedAt: T0, endsAt: T0 + 1000 };
    expect(reward(0, [], oneSecond)).toBe(277);
    expect(reward(5, [], oneSecond)).toBe(291);
    // A 2 s boosted test session: 2 s × 2 × 1.35 = 1500 millionths exactly.
    expect(reward(35, [{ startsAt: T0, endsAt: T0 + 2000, value: 2 }], { startedAt: T0, endsAt: T0 + 2000 })).toBe(
      1500,
    );
  });

  it('stays exact where doubles would not', () => {
    // 12 h session, +260 %, fully boosted: 1e6 × 360 × 24 h in ms is past 2^53 before dividing.
    const span = { startedAt: T0, endsAt: T0 + 12 * H };
    expect(reward(260, [{ startsAt: T0, endsAt: T0 + 12 * H, value: 2 }], span)).toBe(86_400_000);
  });
});

describe('reward properties', () => {
  const sessionMs = fc.integer({ min: 1000, max: 24 * H });
  const percent = fc.record({ tasks: fc.integer({ min: 0, max: 12 }), referrals: fc.integer({ min: 0, max: 30 }) });
  const durations = fc.array(fc.constantFrom(H, 4 * H, 6 * H, 12 * H, 1000, 1500), { maxLength: 6 });
  const offsetShare = fc.double({ min: 0, max: 1, noNaN: true });

  const setup = fc.record({ sessionMs, percent, durations, offsetShare });
  const boostsFor = (span: { startedAt: number; endsAt: number }, from: number, ds: number[]) =>
    chainBoosts(span, from, ds).map((p) => ({ startsAt: p.startsAt, endsAt: p.endsAt, value: 2 }));

  it('is never below the unboosted reward nor above the fully boosted (twice) reward', () => {
    fc.assert(
      fc.property(setup, ({ sessionMs, percent, durations, offsetShare }) => {
        const span = { startedAt: T0, endsAt: T0 + sessionMs };
        const boostPercent = ratePercents(percent.tasks, percent.referrals).totalPercent;
        const from = T0 + Math.floor(sessionMs * offsetShare);
        const unboosted = sessionReward({ ...span, boostPercent, boosts: [] });
        const doubled = sessionReward({ ...span, boostPercent, boosts: [{ ...span, startsAt: T0, value: 2 }] });
        const got = sessionReward({ ...span, boostPercent, boosts: boostsFor(span, from, durations) });
        expect(got).toBeGreaterThanOrEqual(unboosted);
        expect(got).toBeLessThanOrEqual(doubled);
        // Twice the unboosted reward, give or take the one millionth each rounding may drop.
        expect(doubled).toBeLessThanOrEqual(2 * unboosted + 1);
      }),
      { numRuns: 500 },
    );
  });

  it('does not depend on the order the boosts were bought or applied in', () => {
    fc.assert(
      fc.property(setup, fc.integer({ min: 0, max: 1000 }), ({ sessionMs, percent, durations, offsetShare }, seed) => {
        const span = { startedAt: T0, endsAt: T0 + sessionMs };
        const boostPercent = ratePercents(percent.tasks, percent.referrals).totalPercent;
        const from = T0 + Math.floor(sessionMs * offsetShare);
        const shuffled = [...durations];
        for (let i = shuffled.length - 1; i > 0; i--) {
          const j = (seed * 31 + i * 17) % (i + 1);
          [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
        }
        const a = sessionReward({ ...span, boostPercent, boosts: boostsFor(span, from, durations) });
        const b = sessionReward({ ...span, boostPercent, boosts: boostsFor(span, from, shuffled) });
        const c = sessionReward({ ...span, boostPercent, boosts: boostsFor(span, from, [...durations].reverse()) });
        expect(b).toBe(a);
        expect(c).toBe(a);
      }),
      { numRuns: 500 },
    );
  });

  it('chained boosts never overlap and never leave the session', () => {
    fc.assert(
      fc.property(setup, ({ sessionMs, durations, offsetShare }) => {
        const span = { startedAt: T0, endsAt: T0 + sessionMs };
        const plan = chainBoosts(span, T0 + Math.floor(sessionMs * offsetShare), durations);
        for (let i = 0; i < plan.length; i++) {
          expect(plan[i].startsAt).toBeGreaterThanOrEqual(span.startedAt);
          expect(plan[i].endsAt).toBeLessThanOrEqual(span.endsAt);
          expect(plan[i].efficiencyPercent).toBeGreaterThanOrEqual(0);
          expect(plan[i].efficiencyPercent).toBeLessThanOrEqual(100);
          if (i > 0) expect(plan[i].startsAt).toBeGreaterThanOrEqual(plan[i - 1].endsAt);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("reward earned so far (the client's live projection)", () => {
  const input = { ...eightHours, boostPercent: 10, boosts: [{ startsAt: T0 + H, endsAt: T0 + 2 * H, value: 2 }] };

  it('is nothing at the start and the whole reward at the end and after', () => {
    expect(rewardEarnedBy(input, T0 - H)).toBe(0);
    expect(rewardEarnedBy(input, T0)).toBe(0);
    expect(rewardEarnedBy(input, T0 + 8 * H)).toBe(sessionReward(input));
    expect(rewardEarnedBy(input, T0 + 100 * H)).toBe(sessionReward(input));
  });

  it('counts a boost only for the part already run', () => {
    // 1.1 PXT/h: 1 h plain, then half an hour doubled.
    expect(rewardEarnedBy(input, T0 + 1.5 * H)).toBe(1_100_000 + 1_100_000);
    expect(rewardEarnedBy(input, T0 + 3 * H)).toBe(3 * 1_100_000 + 1_100_000);
  });

  it('never goes down as time passes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 8 * H }), fc.integer({ min: 0, max: 8 * H }), (a, b) => {
        const [early, late] = a <= b ? [a, b] : [b, a];
        return rewardEarnedBy(input, T0 + early) <= rewardEarnedBy(input, T0 + late);
      }),
    );
  });
});
