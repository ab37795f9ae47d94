// The offline outbox (decisions §10). A state-changing call goes through `sendOrQueue`: it is sent
// at once with a fresh Idempotency-Key, or, when the device is offline (or the request never reached
// the server, or no answer came back within API_TIMEOUT_MS), stored in Dexie `outbox` as 'pending'
// with that key. `replayOutbox` later sends the pending calls one by one in the order they were
// made, each with its ORIGINAL key, so a call the server already handled (the answer was lost on
// the way back) is answered from the server's idempotency store and never runs twice (a claim never
// pays twice).
//
// Outcomes of a replayed call: an answer → 'done'; a refusal (4xx) → 'failed' with the server's
// code and text (the code is translated when shown, so the player reads their own language; the
// text is only for a code the app does not know), shown to the player and never retried; no
// answer, a 5xx, a throttle or "the same key is still in progress" → the replay stops and that call
// and every later one stay 'pending' for the next attempt (order matters: a start must not overtake
// the claim before it).
//
// Owners: each call is stored with the account that made it. When the session is over (the refresh
// token is refused: the session was ended on another device) the replay stops and keeps the calls
// 'pending' — the API client has signed the player out and opened the login with the reason. Once
// the same account signs in again the calls go out with their original keys (paid once); when
// another account signs in, the previous player's calls are dropped, never sent as someone else.
//
// The service worker's Background Sync asks an open page to run `replayOutbox` (sw/sync.ts), so nothing here needs React.
import { FetchError } from 'ofetch';
import { IDEMPOTENCY_WINDOW_MS } from '@shared/constants';
import { api, newIdempotencyKey } from './api-client';
import { db, type OutboxRow } from './db';
import { currentAccount, isSignedIn } from './session';

export interface OutboxCall {
  method: OutboxRow['method'];
  /** Path under /api/v1/, e.g. 'mining/claim/'. */
  path: string;
  body?: Record<string, unknown>;
}

export type SendResult<T> = { status: 'sent'; data: T } | { status: 'queued'; id: number; key: string };

export interface ReplaySummary {
  sent: number;
  failed: number;
  /** Calls still waiting (the replay stopped at a network failure, or the device is offline). */
  pending: number;
  /** Paths of the calls the server answered during this replay, in order. */
  sentPaths: string[];
  /** The server's answers to those calls, in the same order (a queued claim's reward, …). */
  answers: { path: string; data: unknown }[];
}

const OPEN_STATUSES: OutboxRow['status'][] = ['pending', 'sending'];

/** True when no answer came back at all (offline, DNS, connection reset), as opposed to an HTTP error. */
export function isNetworkFailure(err: unknown): boolean {
  if (err instanceof FetchError) return !err.response && !err.status;
  // fetch itself rejects with a TypeError when the network is down.
  return err instanceof TypeError;
}

const statusOf = (err: unknown): number => (err instanceof FetchError ? (err.status ?? err.response?.status ?? 0) : 0);
const codeOf = (err: unknown): unknown =>
  err instanceof FetchError ? (err.data as { code?: unknown } | undefined)?.code : undefined;

/** An answer that is not a verdict on the call: try again later with the same key. */
function retryLater(err: unknown): boolean {
  if (isNetworkFailure(err)) return true;
  const status = statusOf(err);
  if (status === 0 || status >= 500 || status === 408 || status === 429) return true;
  return status === 409 && codeOf(err) === 'idempotency_in_progress';
}

/** The server's reason in the mining catalogue's order (spec §8): detail, message, the JSON body; null if none. */
export function refusalText(err: unknown): string | null {
  if (!(err instanceof FetchError)) return err instanceof Error && err.message ? err.message : null;
  const data: unknown = err.data;
  if (typeof data === 'string') return data.trim() || null;
  if (!data || typeof data !== 'object') return null;
  const { detail, message } = data as { detail?: unknown; message?: unknown };
  if (typeof detail === 'string' && detail) return detail;
  if (typeof message === 'string' && message) return message;
  return JSON.stringify(data);
}

const isOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

async function enqueue(call: OutboxCall, key: string): Promise<SendResult<never>> {
  const id = await db.outbox.add({
    createdAt: Date.now(),
    key,
    method: call.method,
    path: call.path,
    body: call.body,
    status: 'pending',
    error: null,
    owner: currentAccount(),
  });
  return { status: 'queued', id: id as number, key };
}

export async function pendingCount(): Promise<number> {
  return db.outbox.where('status').anyOf(OPEN_STATUSES).count();
}

/**
 * Sends the call now, or queues it when offline. HTTP errors are thrown as usual (the caller shows
 * them); only "no answer" queues. Calls queued earlier go first: if they cannot be sent yet, this
 * one waits behind them.
 */
export async function sendOrQueue<T>(call: OutboxCall): Promise<SendResult<T>> {
  const key = newIdempotencyKey();
  if (isOffline()) return enqueue(call, key);
  if ((await pendingCount()) > 0) {
    await replayOutbox();
    if ((await pendingCount()) > 0) return enqueue(call, key);
  }
  try {
    const data = await api<T>(call.path, { method: call.method, body: call.body, idempotencyKey: key });
    return { status: 'sent', data };
  } catch (err) {
    if (isNetworkFailure(err)) return enqueue(call, key);
    throw err;
  }
}

type Listener = (summary: ReplaySummary) => void;
const listeners = new Set<Listener>();

/** Called after every replay that sent or failed something; returns an unsubscribe function. */
export function onOutboxReplayed(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

let running: Promise<ReplaySummary> | null = null;

/** Sends the pending calls in order (one replay at a time per page; the keys make overlaps harmless). */
export function replayOutbox(): Promise<ReplaySummary> {
  running ??= replay().finally(() => {
    running = null;
  });
  return running;
}

/**
 * Who may send a row now: its owner, signed in (else it waits); another signed-in account drops it.
 * A row without owner (made by an older version, or signed out) goes out as before: sign-out
 * cleared the outbox then, so it can only be the current player's.
 */
export function rowVerdict(
  row: Pick<OutboxRow, 'owner'>,
  signedIn: boolean,
  account: string | null,
): 'send' | 'wait' | 'drop' {
  if (!row.owner) return 'send';
  if (!signedIn || !account) return 'wait';
  return row.owner === account ? 'send' : 'drop';
}

async function replay(): Promise<ReplaySummary> {
  const summary: ReplaySummary = { sent: 0, failed: 0, pending: 0, sentPaths: [], answers: [] };
  // Done calls are kept as long as the server remembers their keys, then dropped.
  await db.outbox
    .where('status')
    .equals('done')
    .and((r) => r.createdAt < Date.now() - IDEMPOTENCY_WINDOW_MS)
    .delete();
  const open = await db.outbox.where('status').anyOf(OPEN_STATUSES).sortBy('id');
  const signedIn = isSignedIn();
  const account = currentAccount();
  // Another player's calls are never sent as this one: dropped (and forgotten) here.
  const foreign = open.filter((r) => rowVerdict(r, signedIn, account) === 'drop');
  if (foreign.length) await db.outbox.bulkDelete(foreign.map((r) => r.id!));
  const rows = open.filter((r) => rowVerdict(r, signedIn, account) === 'send');
  const waiting = open.length - foreign.length - rows.length;
  if (isOffline() || rows.length === 0) return { ...summary, pending: rows.length + waiting };
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    await db.outbox.update(row.id!, { status: 'sending' });
    try {
      const data: unknown = await api(row.path, {
        method: row.method,
        body: row.body as Record<string, unknown> | undefined,
        idempotencyKey: row.key,
      });
      await db.outbox.update(row.id!, { status: 'done', error: null });
      summary.sent++;
      summary.sentPaths.push(row.path);
      summary.answers.push({ path: row.path, data });
    } catch (err) {
      // 401: the session is over (the API client signed the player out): kept for the owner's next sign-in.
      if (retryLater(err) || statusOf(err) === 401) {
        await db.outbox.update(row.id!, { status: 'pending' });
        summary.pending = rows.length - i + waiting;
        break;
      }
      const code = codeOf(err);
      await db.outbox.update(row.id!, {
        status: 'failed',
        error: refusalText(err),
        code: typeof code === 'string' && code ? code : null,
      });
      summary.failed++;
    }
  }
  if (summary.sent > 0 || summary.failed > 0) for (const l of listeners) l(summary);
  return summary;
}

/** Forgets a failed call once the player has seen it. */
export async function dismissOutboxEntry(id: number): Promise<void> {
  await db.outbox.delete(id);
}
