// A number that counts from `from` to `to` over `ms` once `to` changes (the claim's reward moment);
// with reduced motion, or for an unchanged value, it is the final value at once.
import { useEffect, useState } from 'react';
import { useMediaQuery } from '@/lib/use-media-query';

export const useReducedMotion = () => useMediaQuery('(prefers-reduced-motion: reduce)');

/** The eased position of a count-up after `elapsed` of `ms` (pure, for the unit test). */
export function countUpValue(from: number, to: number, elapsed: number, ms: number): number {
  if (ms <= 0 || elapsed >= ms) return to;
  const p = Math.max(0, elapsed / ms);
  const eased = 1 - (1 - p) ** 3;
  return from + (to - from) * eased;
}

export function useCountUp(from: number, to: number, ms = 1200): number {
  const reduced = useReducedMotion();
  const [value, setValue] = useState(reduced ? to : from);
  useEffect(() => {
    if (reduced || from === to) {
      setValue(to);
      return;
    }
    let frame = 0;
    const start = performance.now();
    const tick = (t: number) => {
      const v = countUpValue(from, to, t - start, ms);
      setValue(v);
      if (v !== to) frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [from, to, ms, reduced]);
  return value;
}
