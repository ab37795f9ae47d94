import { useLiveQuery } from '@/lib/live-query';
import type { IcoJson } from '@shared/api/ico';
import { db } from '@/lib/db';
import { ICO_KEY } from '../api/ico-api';

/** The stored token-sale figures: undefined while Dexie answers, null before the first fetch. */
export function useStoredIco(): IcoJson | null | undefined {
  return useLiveQuery(async () => ((await db.meta.get(ICO_KEY))?.value as IcoJson | undefined) ?? null, []);
}
