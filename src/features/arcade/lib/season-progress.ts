// Pure arithmetic of the arcade page: where the player stands inside the current tier (the XP bar)
// and how long the season still runs. Rules (30 tiers, 100 XP each) come from shared/season.ts.
import { formatDuration, type Locale } from 'date-fns';
import { SEASON_TIERS, XP_PER_TIER } from '@shared/season';

export interface TierProgress {
  /** Highest tier reached, 0 … tiers. */
  tier: number;
  tiers: number;
  /** XP earned inside the tier being worked on (xpPerTier once every tier is reached). */
  xpInTier: number;
  xpPerTier: number;
  /** XP still needed for the next tier (0 when maxed). */
  xpToNext: number;
  /** Fill of the bar, 0 … 100, rounded down so it never shows full before the tier is reached. */
  percent: number;
  /** The tier being worked on, or null when every tier is reached. */
  nextTier: number | null;
  maxed: boolean;
}

export function tierProgress(xp: number, xpPerTier: number = XP_PER_TIER, tiers: number = SEASON_TIERS): TierProgress {
  const safeXp = Number.isFinite(xp) && xp > 0 ? Math.floor(xp) : 0;
  const perTier = xpPerTier > 0 ? xpPerTier : XP_PER_TIER;
  const tier = Math.min(tiers, Math.floor(safeXp / perTier));
  const maxed = tier >= tiers;
  const xpInTier = maxed ? perTier : safeXp - tier * perTier;
  return {
    tier,
    tiers,
    xpInTier,
    xpPerTier: perTier,
    xpToNext: maxed ? 0 : perTier - xpInTier,
    percent: Math.floor((xpInTier / perTier) * 100),
    nextTier: maxed ? null : tier + 1,
    maxed,
  };
}

const MINUTE = 60_000;

/**
 * What is left of the season, e.g. "12 days 5 hours" / "12 дней 5 часов": days and hours while a day
 * or more remains, then hours and minutes, then minutes (rounded up, so never "0 minutes").
 * Null once the end has passed.
 */
export function formatTimeLeft(endsAt: string | number | Date, now: number | Date, locale: Locale): string | null {
  const end = new Date(endsAt).getTime();
  const left = end - new Date(now).getTime();
  if (!Number.isFinite(left) || left <= 0) return null;
  const totalMinutes = Math.ceil(left / MINUTE);
  const days = Math.floor(totalMinutes / 1440);
  const hours = Math.floor((totalMinutes % 1440) / 60);
  const minutes = totalMinutes % 60;
  const parts = days > 0 ? { days, hours } : hours > 0 ? { hours, minutes } : { minutes };
  return formatDuration(parts, { locale, format: Object.keys(parts) as (keyof typeof parts)[] });
}
