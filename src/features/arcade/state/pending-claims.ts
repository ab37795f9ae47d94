// Tier claims waiting in the outbox (made offline), so their cards show "pending" until replayed.
import { useLiveQuery } from '@/lib/live-query';
import { db } from '@/lib/db';
import { CLAIM_PATH } from '../api/season-api';

export function usePendingClaims(): Set<number> {
  const tiers = useLiveQuery(async () => {
    const rows = await db.outbox.where('status').anyOf(['pending', 'sending']).toArray();
    return rows
      .filter((r) => r.path === CLAIM_PATH)
      .map((r) => Number((r.body as { tier?: unknown } | undefined)?.tier));
  }, []);
  return new Set(tiers ?? []);
}
