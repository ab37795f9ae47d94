// Sessions (decisions §13): every sign-in opens one; access tokens name it (`sid`) and are checked
// against it on every call, so an ended session's tokens stop working at once on every process.
// A session keeps a coarse description (device from the user agent, address coarsened) for the
// profile's security section, and when it was last used (written at most every few minutes).
import type { Tx } from '../db/schema';
import { prepared } from '../db/prepared';
import { forgetDevices, type KnownDevices } from './known-devices';
import { describeDevice } from '../lib/user-agent';
import { coarseAddress } from '../lib/client-address';

/** How stale `last_used_at` may get before a call writes it again: one write per session and period, not per call. */
export const LAST_USED_RESOLUTION_MS = 5 * 60 * 1000;

export interface SessionOrigin {
  userAgent: string | undefined;
  ip: string;
}

export async function openSession(trx: Tx, userId: number, origin: SessionOrigin, now = Date.now()): Promise<number> {
  const row = await trx
    .insertInto('sessions')
    .values({
      user_id: userId,
      device: describeDevice(origin.userAgent),
      address: coarseAddress(origin.ip),
      created_at: now,
      last_used_at: now,
      ended_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

const liveSessionRead = prepared(
  (db, p: { id: number; userId: number }) =>
    db
      .selectFrom('sessions')
      .select('last_used_at')
      .where('id', '=', p.id)
      .where('user_id', '=', p.userId)
      .where('ended_at', 'is', null),
  { oneRow: true },
);

/**
 * Whether session `id` of `userId` is live: `true`/`false` at once when the read can run now (SQLite
 * with its connection free: no promise on the hot path), else a promise. Writes `last_used_at` now
 * and then, without holding the call up.
 */
export function liveSession(
  db: Tx,
  id: number,
  userId: number,
  onWriteError: (err: unknown) => void,
  now = Date.now(),
): boolean | Promise<boolean> {
  const seen = (rows: { last_used_at: number }[]) => {
    const row = rows[0];
    if (!row) return false;
    noteSessionUsed(db, id, row.last_used_at, onWriteError, now);
    return true;
  };
  const rows = liveSessionRead.now(db, { id, userId });
  return rows ? seen(rows) : liveSessionRead(db, { id, userId }).then(seen);
}

/** Writes `last_used_at` when the one read is older than LAST_USED_RESOLUTION_MS; the call does not wait for it. */
export function noteSessionUsed(
  db: Tx,
  id: number,
  lastUsedAt: number | string,
  onWriteError: (err: unknown) => void,
  now = Date.now(),
): void {
  if (now - Number(lastUsedAt) < LAST_USED_RESOLUTION_MS) return;
  db.updateTable('sessions')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where('ended_at', 'is', null)
    .execute()
    .catch(onWriteError);
}

/** Ends one session of the player (its refresh tokens with it); false when there was no live one. */
export async function endSession(trx: Tx, userId: number, id: number, now = Date.now()): Promise<boolean> {
  const ended = await trx
    .updateTable('sessions')
    .set({ ended_at: now })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  // Only a session of this player: another player's id must end nothing of theirs.
  if (Number(ended.numUpdatedRows) === 0) return false;
  await trx
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('session_id', '=', id)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
  return true;
}

/**
 * Ends every session of the player but `keep` (the device that made the change, when it is theirs),
 * and revokes every refresh token outside it (tokens from before sessions existed included).
 */
export async function endOtherSessions(trx: Tx, userId: number, keep: number | null, now = Date.now()): Promise<void> {
  let sessions = trx
    .updateTable('sessions')
    .set({ ended_at: now })
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null);
  if (keep !== null) sessions = sessions.where('id', '!=', keep);
  await sessions.execute();
  let tokens = trx
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (keep !== null) tokens = tokens.where((eb) => eb.or([eb('session_id', 'is', null), eb('session_id', '!=', keep)]));
  await tokens.execute();
}

export const endAllSessions = (trx: Tx, userId: number, now = Date.now()) => endOtherSessions(trx, userId, null, now);

export async function listSessions(db: Tx, userId: number) {
  return db
    .selectFrom('sessions')
    .select(['id', 'device', 'address', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null)
    .orderBy('last_used_at', 'desc')
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
}

/**
 * Signs every other browser out for good (decisions §13): ends their sessions, as endOtherSessions,
 * and forgets every device string of the account, so a browser that comes back is a new device (the
 * owner is mailed, and it has no attempt lane of its own). Returns a string of the new generation
 * for the browser that asked, which stays the account's own.
 */
export async function signOutOthers(
  trx: Tx,
  knownDevices: KnownDevices,
  userId: number,
  keep: number | null,
  now = Date.now(),
): Promise<string> {
  await endOtherSessions(trx, userId, keep, now);
  return knownDevices.issue(await forgetDevices(trx, userId));
}
