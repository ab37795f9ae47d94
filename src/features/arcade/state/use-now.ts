import { useEffect, useState } from 'react';

/** The current time, renewed every `everyMs` (the season countdown needs minutes, not seconds). */
export function useNow(everyMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(id);
  }, [everyMs]);
  return now;
}
