import { enUS } from 'date-fns/locale/en-US';
import { ru } from 'date-fns/locale/ru';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatTimeLeft, tierProgress } from '@/features/arcade/lib/season-progress';

describe('tier progress (the XP bar)', () => {
  it('starts at tier 0 with an empty bar', () => {
    expect(tierProgress(0)).toEqual({
      tier: 0,
      tiers: 30,
      xpInTier: 0,
      xpPerTier: 100,
      xpToNext: 100,
      percent: 0,
      nextTier: 1,
      maxed: false,
    });
  });

  it('counts the XP inside the tier being worked on', () => {
    expect(tierProgress(145)).toMatchObject({ tier: 1, xpInTier: 45, xpToNext: 55, percent: 45, nextTier: 2 });
    expect(tierProgress(100)).toMatchObject({ tier: 1, xpInTier: 0, percent: 0, nextTier: 2 });
    expect(tierProgress(2999)).toMatchObject({ tier: 29, xpInTier: 99, percent: 99, nextTier: 30, maxed: false });
  });

  it('is full and maxed once the last tier is reached, however much XP follows', () => {
    for (const xp of [3000, 3050, 99_999]) {
      expect(tierProgress(xp)).toMatchObject({
        tier: 30,
        xpInTier: 100,
        xpToNext: 0,
        percent: 100,
        nextTier: null,
        maxed: true,
      });
    }
  });

  it('treats bad input as no XP', () => {
    expect(tierProgress(-5).tier).toBe(0);
    expect(tierProgress(Number.NaN).xpInTier).toBe(0);
  });

  it('never shows a full bar before the tier is reached, and always adds back up to the XP', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2999 }), (xp) => {
        const p = tierProgress(xp);
        expect(p.percent).toBeGreaterThanOrEqual(0);
        expect(p.percent).toBeLessThan(100);
        expect(p.tier * p.xpPerTier + p.xpInTier).toBe(xp);
        expect(p.xpInTier + p.xpToNext).toBe(p.xpPerTier);
      }),
    );
  });

  it('follows other tier sizes', () => {
    expect(tierProgress(250, 200, 5)).toMatchObject({ tier: 1, xpInTier: 50, percent: 25 });
  });
});

describe('time left in the season', () => {
  const now = Date.UTC(2026, 10, 20, 12, 0, 0);
  const m = 60_000;
  const h = 60 * m;
  const d = 24 * h;

  it('shows days and hours while a day or more remains', () => {
    expect(formatTimeLeft(now + 12 * d + 5 * h + 30 * m, now, enUS)).toBe('12 days 5 hours');
    expect(formatTimeLeft(now + 30 * d, now, enUS)).toBe('30 days');
    expect(formatTimeLeft(new Date(now + d + h).toISOString(), now, enUS)).toBe('1 day 1 hour');
  });

  it('shows hours and minutes in the last day, then minutes rounded up', () => {
    expect(formatTimeLeft(now + 3 * h + 20 * m, now, enUS)).toBe('3 hours 20 minutes');
    expect(formatTimeLeft(now + 59 * m + 1000, now, enUS)).toBe('1 hour');
    expect(formatTimeLeft(now + 10 * m, now, enUS)).toBe('10 minutes');
    expect(formatTimeLeft(now + 1000, now, enUS)).toBe('1 minute');
  });

  it('speaks Russian with the Russian locale', () => {
    expect(formatTimeLeft(now + 12 * d + 5 * h, now, ru)).toBe('12 дней 5 часов');
    expect(formatTimeLeft(now + 2 * h + 1 * m, now, ru)).toBe('2 часа 1 минута');
  });

  it('is null once the season is over or the date is bad', () => {
    expect(formatTimeLeft(now, now, enUS)).toBeNull();
    expect(formatTimeLeft(now - d, now, enUS)).toBeNull();
    expect(formatTimeLeft('not a date', now, enUS)).toBeNull();
  });
});
