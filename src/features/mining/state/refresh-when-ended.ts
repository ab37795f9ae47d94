// The miner's session read again when its timer runs out: the Auto Miner claims and restarts it
// server-side. Its worker may be a few seconds late (a busy server), so with the Auto Miner on the
// page asks again every few seconds, a bounded number of times, until the new session shows.
import { useEffect, useRef } from 'react';
import type { MinerStatus } from '../lib/session-view';

/** Seconds after a session's end by which the Auto Miner has claimed and restarted it (decisions §6: within 5 s). */
const AUTO_MINER_SETTLE_MS = 6000;
/** How often the page asks again for the Auto Miner's new session before leaving it to the next visit. */
const AUTO_MINER_SETTLE_TRIES = 10;

/**
 * Calls `load` when `status` goes from running to ready, and then, with the Auto Miner on, every
 * AUTO_MINER_SETTLE_MS up to AUTO_MINER_SETTLE_TRIES times. `autoOn` is a boolean, not the date: a
 * new Date each second re-ran the effect, which cleared the interval before it asked once (the page
 * stayed "Ready to claim" when the worker came after the first ask).
 */
export function useRefreshWhenEnded(status: MinerStatus, autoOn: boolean, load: () => Promise<void>): void {
  const previousStatus = useRef(status);
  useEffect(() => {
    const was = previousStatus.current;
    previousStatus.current = status;
    if (was !== 'running' || status !== 'ready') return;
    void load();
    if (!autoOn) return;
    let asked = 0;
    const id = window.setInterval(() => {
      asked += 1;
      if (asked >= AUTO_MINER_SETTLE_TRIES) window.clearInterval(id);
      void load();
    }, AUTO_MINER_SETTLE_MS);
    return () => window.clearInterval(id);
  }, [status, autoOn, load]);
}
