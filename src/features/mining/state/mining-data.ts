// Mining data in Dexie (decisions §10): network → Dexie → useLiveQuery, so the miner shows the last
// known state offline and the countdown survives a reload.
//
// `db.sessions` holds the sessions (rows keyed by the server id, kind 'session') and the Auto Miner
// periods (one row 'subscriptions'). `db.boosts` holds the boosts (keyed '<type>:<id>', as temporary
// and rate boosts are numbered separately), the totals ('summary'), the inventory ('assets') and the
// shop list ('shop'). Both tables are cleared on sign-out with the rest of the player's data.
import { useLiveQuery } from '@/lib/live-query';
import type { AssetGroup } from '@shared/api/assets';
import type { Boost, BoostsResponse, MiningSession, ShopItem, Subscription } from '@shared/api/mining';
import { db, type IdRow, type OutboxRow } from '@/lib/db';
import {
  fetchAssets,
  fetchBoosts,
  fetchSessions,
  fetchShop,
  fetchSubscriptions,
  OUTBOX_PATHS,
} from '../api/mining-api';

export type SessionRow = MiningSession & { kind: 'session' };
export type BoostRow = Omit<Boost, 'id'> & { id: string; boostId: number; kind: 'boost' };
export type BoostSummary = Omit<BoostsResponse, 'boosts'>;
type SummaryRow = BoostSummary & { id: 'summary'; kind: 'summary' };
type AssetsRow = { id: 'assets'; kind: 'assets'; groups: AssetGroup[] };
type ShopRow = { id: 'shop'; kind: 'shop'; items: ShopItem[] };
type SubscriptionsRow = { id: 'subscriptions'; kind: 'subscriptions'; list: Subscription[] };
/** Written with every sessions answer: "no session rows" then means none, not "never asked". */
type SessionsFetchedRow = { id: 'sessionsFetched'; kind: 'sessionsFetched'; at: number };

const asRow = (v: object) => v as IdRow;
const isKind =
  <K extends string>(kind: K) =>
  (r: IdRow): boolean =>
    r.kind === kind;

// ---- writes (network → Dexie) ----

export async function storeSession(session: MiningSession): Promise<void> {
  await db.sessions.put(asRow({ ...session, kind: 'session' } satisfies SessionRow));
}

/** Inside a transaction on db.sessions. */
async function writeSessions(sessions: MiningSession[]): Promise<void> {
  await db.sessions.filter(isKind('session')).delete();
  await db.sessions.bulkPut(sessions.map((s) => asRow({ ...s, kind: 'session' } satisfies SessionRow)));
  await db.sessions.put(
    asRow({ id: 'sessionsFetched', kind: 'sessionsFetched', at: Date.now() } satisfies SessionsFetchedRow),
  );
}

/** Inside a transaction on db.boosts. */
async function writeBoosts(res: BoostsResponse): Promise<void> {
  const { boosts, ...summary } = res;
  await db.boosts.filter(isKind('boost')).delete();
  await db.boosts.bulkPut(
    boosts.map((b) => asRow({ ...b, id: `${b.boost_type}:${b.id}`, boostId: b.id, kind: 'boost' } satisfies BoostRow)),
  );
  await db.boosts.put(asRow({ ...summary, id: 'summary', kind: 'summary' } satisfies SummaryRow));
}

export async function refreshSessions(): Promise<void> {
  const page = await fetchSessions();
  await db.transaction('rw', db.sessions, () => writeSessions(page.results));
}

export async function storeBoosts(res: BoostsResponse): Promise<void> {
  await db.transaction('rw', db.boosts, () => writeBoosts(res));
}

/**
 * The miner's three answers (sessions, boosts, Auto Miner periods) written in one transaction once
 * all have settled, so the page re-renders once for them instead of once per answer. An answer that
 * failed leaves its stored rows as they were; each returned promise settles as its own call did.
 */
export function refreshMinerData(): {
  sessions: Promise<void>;
  boosts: Promise<void>;
  subscriptions: Promise<Subscription[]>;
} {
  const sessions = fetchSessions();
  const boosts = fetchBoosts();
  const subscriptions = fetchSubscriptions();
  const written = Promise.allSettled([sessions, boosts, subscriptions]).then(([s, b, sub]) =>
    db.transaction('rw', db.sessions, db.boosts, async () => {
      if (s.status === 'fulfilled') await writeSessions(s.value.results);
      if (b.status === 'fulfilled') await writeBoosts(b.value);
      if (sub.status === 'fulfilled') await storeSubscriptions(sub.value);
    }),
  );
  const after = <T>(answer: Promise<T>) => written.then(() => answer);
  return {
    sessions: after(sessions).then(() => undefined),
    boosts: after(boosts).then(() => undefined),
    subscriptions: after(subscriptions),
  };
}

export const refreshBoosts = async () => storeBoosts(await fetchBoosts());

export async function refreshAssets(): Promise<AssetGroup[]> {
  const groups = await fetchAssets();
  await db.boosts.put(asRow({ id: 'assets', kind: 'assets', groups } satisfies AssetsRow));
  return groups;
}

export async function refreshShop(): Promise<void> {
  const { items } = await fetchShop();
  await db.boosts.put(asRow({ id: 'shop', kind: 'shop', items } satisfies ShopRow));
}

export async function storeSubscriptions(list: Subscription[]): Promise<void> {
  await db.sessions.put(asRow({ id: 'subscriptions', kind: 'subscriptions', list } satisfies SubscriptionsRow));
}

export async function refreshSubscriptions(): Promise<Subscription[]> {
  const list = await fetchSubscriptions();
  await storeSubscriptions(list);
  return list;
}

// ---- reads (Dexie → React) ----

export function useSessions(): MiningSession[] | undefined {
  return useLiveQuery(async () => (await db.sessions.filter(isKind('session')).toArray()) as unknown as SessionRow[]);
}

/**
 * The sessions with whether the server has answered for them on this device, read in one query so
 * both change together: `known` is false while nothing was ever stored (a first visit here).
 */
export function useStoredSessions(): { sessions: MiningSession[]; known: boolean } | undefined {
  return useLiveQuery(async () => {
    const rows = await db.sessions.toArray();
    const sessions = rows.filter(isKind('session')) as unknown as SessionRow[];
    return { sessions, known: sessions.length > 0 || rows.some(isKind('sessionsFetched')) };
  });
}

/** Everything /miner reads from Dexie. */
export interface MinerData {
  stored: { sessions: MiningSession[]; known: boolean };
  summary: BoostSummary | null;
  boostRows: BoostRow[];
  subscriptions: Subscription[];
  outbox: OutboxRow[];
}

/**
 * The miner's stored state in one query: the page renders once when it is read, and once per write
 * transaction after (five separate live queries rendered the page five times on open, each a long
 * task on a slow phone).
 */
export function useMinerData(): MinerData | undefined {
  return useLiveQuery(() =>
    db.transaction('r', db.sessions, db.boosts, db.outbox, async () => {
      const [sessionRows, boostRows, outbox] = await Promise.all([
        db.sessions.toArray(),
        db.boosts.toArray(),
        db.outbox.where('status').anyOf('pending', 'sending', 'failed').sortBy('id'),
      ]);
      const sessions = sessionRows.filter(isKind('session')) as unknown as SessionRow[];
      const subscriptions = sessionRows.find((r) => r.id === 'subscriptions') as unknown as
        SubscriptionsRow | undefined;
      const summary = boostRows.find((r) => r.id === 'summary') as unknown as SummaryRow | undefined;
      return {
        stored: { sessions, known: sessions.length > 0 || sessionRows.some(isKind('sessionsFetched')) },
        summary: summary ?? null,
        boostRows: boostRows.filter(isKind('boost')) as unknown as BoostRow[],
        subscriptions: subscriptions?.list ?? [],
        outbox,
      };
    }),
  );
}

export function useSubscriptions(): Subscription[] | undefined {
  return useLiveQuery(
    async () => ((await db.sessions.get('subscriptions')) as unknown as SubscriptionsRow | undefined)?.list ?? [],
  );
}

export function useBoostRows(): BoostRow[] | undefined {
  return useLiveQuery(async () => (await db.boosts.filter(isKind('boost')).toArray()) as unknown as BoostRow[]);
}

export function useBoostSummary(): BoostSummary | null | undefined {
  return useLiveQuery(async () => ((await db.boosts.get('summary')) as unknown as SummaryRow | undefined) ?? null);
}

export function useAssets(): AssetGroup[] | null | undefined {
  return useLiveQuery(
    async () => ((await db.boosts.get('assets')) as unknown as AssetsRow | undefined)?.groups ?? null,
  );
}

export function useShopItems(): ShopItem[] | null | undefined {
  return useLiveQuery(async () => ((await db.boosts.get('shop')) as unknown as ShopRow | undefined)?.items ?? null);
}

/** Outbox calls still waiting or refused, oldest first. */
export function useOutboxRows(): OutboxRow[] | undefined {
  return useLiveQuery(() => db.outbox.where('status').anyOf('pending', 'sending', 'failed').sortBy('id'));
}

// ---- derived ----

const isOpen = (r: OutboxRow) => r.status === 'pending' || r.status === 'sending';

/** The pending outbox call of this path, if one is waiting. */
export const pendingCall = (rows: readonly OutboxRow[] | undefined, path: string) =>
  rows?.find((r) => r.path === path && isOpen(r)) ?? null;

/** Temporary boosts whose use waits in the outbox (made offline), by what the call will do to them. */
export interface QueuedBoostUses {
  applied: ReadonlySet<number>;
  selected: ReadonlySet<number>;
}

export function queuedBoostUses(outbox: readonly OutboxRow[] | undefined): QueuedBoostUses {
  const idsOf = (path: string) =>
    new Set(
      (outbox ?? [])
        .filter((r) => r.path === path && isOpen(r))
        .map((r) => Number((r.body as { boost_id?: unknown } | undefined)?.boost_id)),
    );
  return { applied: idsOf(OUTBOX_PATHS.apply), selected: idsOf(OUTBOX_PATHS.select) };
}

/** The same, read now: a tap can come before the live query has seen the call queued last. */
export async function readQueuedBoostUses(): Promise<QueuedBoostUses> {
  return queuedBoostUses(await db.outbox.where('status').anyOf('pending', 'sending').toArray());
}

/** Unused temporary boosts (owned or selected), by duration in hours. */
export interface TempBoostStock {
  hours: number;
  durationSeconds: number;
  /** Owned and selected, oldest first. */
  ids: number[];
  /** Not selected yet, oldest first: the ones a Use button takes. */
  freeIds: number[];
  selected: number;
}

/**
 * The stock as it will be once the outbox has been sent: the stored list changes only when the
 * server answers, so without `queued` a boost used offline stayed on offer and a second tap queued
 * the same boost again (refused on reconnect as already used). A queued apply takes the boost out
 * of the stock; a queued select marks it selected, as the server's answer will.
 */
export function tempBoostStock(
  rows: readonly BoostRow[],
  hoursList: readonly number[],
  queued: QueuedBoostUses = { applied: new Set(), selected: new Set() },
): TempBoostStock[] {
  const unused = rows
    .filter((r) => r.boost_type === 'temporary' && !r.is_active && !queued.applied.has(r.boostId))
    .sort((a, b) => a.boostId - b.boostId);
  const selected = (r: BoostRow) => r.is_selected || queued.selected.has(r.boostId);
  return hoursList.map((hours) => {
    const mine = unused.filter((r) => r.duration_seconds === hours * 3600);
    return {
      hours,
      durationSeconds: hours * 3600,
      ids: mine.map((r) => r.boostId),
      freeIds: mine.filter((r) => !selected(r)).map((r) => r.boostId),
      selected: mine.filter(selected).length,
    };
  });
}
