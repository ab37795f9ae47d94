// The stored season: undefined while Dexie answers, 'unknown' before the first fetch, null when no
// season runs, else the season.
import { useLiveQuery } from '@/lib/live-query';
import type { SeasonJson } from '@shared/api/arcade';
import { db } from '@/lib/db';
import { SEASON_KEY } from '../api/season-api';

export function useStoredSeason(): SeasonJson | null | 'unknown' | undefined {
  return useLiveQuery(async () => {
    const row = await db.season.get(SEASON_KEY);
    return row ? (row.value as SeasonJson | null) : 'unknown';
  }, []);
}
