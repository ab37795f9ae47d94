// The browser database (Dexie over IndexedDB): the server data the UI shows, so the app still shows
// the last known state offline (decisions §10). Components read with `useLiveQuery`; network calls
// refresh these tables; sign-out clears the player's data (`clearPlayerData`).
//
// Every table later features need is declared here already, so nobody bumps the schema version
// concurrently. Adding a table or an index: add `this.version(N + 1).stores({...})` below the
// existing version with only the changed tables (Dexie keeps the older ones).
import Dexie, { type EntityTable } from 'dexie';
import type { Me } from '@shared/api/auth';

/** The `/auth/me` record (shared/api/auth.ts), stored under key 'me'. Empty strings mean "none". */
export type MeRecord = Me;
export interface UserRow extends MeRecord {
  key: 'me';
  /** Epoch ms of the fetch that wrote this row. */
  fetchedAt: number;
}

/** Rows keyed by the server's id; the features that own them type their fields. */
export interface IdRow {
  id: number | string;
  [field: string]: unknown;
}
/** Whole server documents (e.g. 'completed' tasks answer, the active season) under a name. */
export interface DocRow {
  key: string;
  value: unknown;
  fetchedAt?: number;
}
export interface BlogRow {
  /** `${lang}:${id}` for an article, `${lang}:list` for the list. */
  key: string;
  lang: string;
  id: number | string;
  value: unknown;
  fetchedAt?: number;
}

export type OutboxStatus = 'pending' | 'sending' | 'failed' | 'done';
/** A state-changing call made offline, replayed in order with its Idempotency-Key (decisions §10). */
export interface OutboxRow {
  id?: number;
  createdAt: number;
  /** The Idempotency-Key sent with every attempt. */
  key: string;
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'GET';
  /** Path under /api/v1/, e.g. 'mining/claim/'. */
  path: string;
  body?: unknown;
  status: OutboxStatus;
  /** A refused call: the server's words (detail, message or body), shown only for a code the app has no text for. */
  error?: string | null;
  /** A refused call: the server's machine code, translated when the notice is drawn (the player's language then). */
  code?: string | null;
  /** The account that made the call (lib/session.ts `currentAccount`); absent on rows of older versions. */
  owner?: string | null;
}
export interface MetaRow {
  key: string;
  value: unknown;
}

export class PxtDatabase extends Dexie {
  user!: EntityTable<UserRow, 'key'>;
  boosts!: EntityTable<IdRow, 'id'>;
  sessions!: EntityTable<IdRow, 'id'>;
  tasks!: EntityTable<DocRow, 'key'>;
  referrals!: EntityTable<IdRow, 'id'>;
  season!: EntityTable<DocRow, 'key'>;
  blog!: EntityTable<BlogRow, 'key'>;
  outbox!: EntityTable<OutboxRow, 'id'>;
  meta!: EntityTable<MetaRow, 'key'>;

  constructor(name = 'pxt-companion') {
    super(name);
    this.version(1).stores({
      user: 'key',
      boosts: 'id, boost_type',
      sessions: 'id, started_at',
      tasks: 'key',
      referrals: 'id',
      season: 'key',
      blog: 'key, lang',
      outbox: '++id, createdAt, &key, status',
      meta: 'key',
    });
  }
}

export const db = new PxtDatabase();

/** The tables that belong to the signed-in player (meta, e.g. the cached public config, stays). */
export const playerTables = () => [db.user, db.boosts, db.sessions, db.tasks, db.referrals, db.season, db.outbox];

/**
 * Sign-out forgets the player's tables except the outbox: its calls belong to the account that made
 * them (`OutboxRow.owner`) and go out when that account signs in again, or are dropped when another
 * one does (lib/outbox.ts).
 */
export async function clearPlayerData(): Promise<void> {
  const tables = playerTables().filter((t) => t !== db.outbox);
  await db.transaction('rw', tables, async () => {
    await Promise.all(tables.map((t) => t.clear()));
  });
}
