// A visitor's tap on a prerendered page (the landing, /blog) before the app hydrated it did nothing
// (a button without its handler yet) or loaded a guarded page natively (a link). The pre-paint
// script (scripts/pre-paint-scripts.ts) holds such taps back; once the page is hydrated the last one
// is made again, now with its handler.

/** What the pre-paint script leaves on window (EARLY_TAPS_GLOBAL there). */
export interface EarlyTaps {
  /** Stops holding taps back and gives the buttons tapped so far, oldest first. */
  stop(): Element[];
}

export const EARLY_TAPS_GLOBAL = '__pxtEarlyTaps';

export function replayEarlyTap(): void {
  const holder = (window as unknown as Record<string, EarlyTaps | undefined>)[EARLY_TAPS_GLOBAL];
  if (!holder) return;
  delete (window as unknown as Record<string, unknown>)[EARLY_TAPS_GLOBAL];
  const last = holder.stop().at(-1);
  if (last instanceof HTMLElement && last.isConnected) last.click();
}
