// Runs a network refresh whenever its key changes and reports how it went. The page renders the
// Dexie copy either way; this only says whether a fresh one is coming, failed, or does not exist.
import { useEffect, useRef, useState } from 'react';
import { toApiFailure, type ApiFailure } from './api-errors';

export type RefreshState = { phase: 'loading' } | { phase: 'done' } | { phase: 'failed'; failure: ApiFailure };

export function useRefresh(key: string, refresh: () => Promise<void>): { state: RefreshState; retry: () => void } {
  const [state, setState] = useState<RefreshState>({ phase: 'loading' });
  const [attempt, setAttempt] = useState(0);
  // The latest closure, so only a new key (or a retry) starts a new request.
  const latest = useRef(refresh);
  latest.current = refresh;

  useEffect(() => {
    let live = true;
    setState({ phase: 'loading' });
    latest.current().then(
      () => live && setState({ phase: 'done' }),
      (err: unknown) => live && setState({ phase: 'failed', failure: toApiFailure(err, '') }),
    );
    return () => {
      live = false;
    };
  }, [key, attempt]);

  return { state, retry: () => setAttempt((n) => n + 1) };
}
