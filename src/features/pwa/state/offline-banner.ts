// When the offline banner shows and what it says (pure, unit-tested). Offline: the browser says so.
// Unreachable: the browser thinks it is online but calls are waiting in the outbox — they are only
// queued after a request got no answer, so the server (or the way to it) is down.
export type OfflineBanner = { visible: false } | { visible: true; reason: 'offline' | 'unreachable'; pending: number };

export function offlineBanner(facts: { online: boolean; pending: number }): OfflineBanner {
  const pending = Math.max(0, Math.floor(facts.pending));
  if (!facts.online) return { visible: true, reason: 'offline', pending };
  if (pending > 0) return { visible: true, reason: 'unreachable', pending };
  return { visible: false };
}
