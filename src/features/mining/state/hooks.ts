// Small React hooks of the mining screens: a ticking clock, the online flag, refresh after replays.
import { useEffect, useState, useSyncExternalStore } from 'react';
import { onOutboxReplayed, type ReplaySummary } from '@/lib/outbox';

/** The current time, updated every `intervalMs` (the countdown and the live projection). */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(id);
  }, [intervalMs]);
  return now;
}

export function useOnline(): boolean {
  return useSyncExternalStore(
    (notify) => {
      window.addEventListener('online', notify);
      window.addEventListener('offline', notify);
      return () => {
        window.removeEventListener('online', notify);
        window.removeEventListener('offline', notify);
      };
    },
    () => navigator.onLine,
    () => true,
  );
}

/** Runs `refresh` after every outbox replay that reached the server (a queued claim was paid, …). */
export function useRefreshAfterReplay(refresh: (summary: ReplaySummary) => void): void {
  useEffect(() => onOutboxReplayed(refresh), [refresh]);
}
