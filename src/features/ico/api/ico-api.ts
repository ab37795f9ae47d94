// GET ico/ (403 without the player's ico flag) into Dexie `meta` under 'ico', so the page shows the
// last known figures offline. The figures are the same for every player, so they are not player data.
import type { IcoJson } from '@shared/api/ico';
import { api } from '@/lib/api-client';
import { db } from '@/lib/db';

export const ICO_KEY = 'ico';

export async function refreshIco(): Promise<void> {
  const ico = await api<IcoJson>('ico/');
  await db.meta.put({ key: ICO_KEY, value: { ...ico, fetchedAt: Date.now() } });
}
