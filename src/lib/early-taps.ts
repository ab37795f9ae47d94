// A visitor's tap on a prerendered page (the landing, /blog) before the app hydrated it did nothing
// (a button without its handler yet) or loaded a guarded page natively (a link). The page's start
// script (lib/start-on-intent.ts, run inline by the built HTML) holds such taps back — a click, or
// a key that activates a focused button or link — and marks the control busy; on a visitor's page
// the first of them is also what starts the app. Once the page is hydrated the busy marks go and
// the last tap is made again, now with its handler.
import type { StartGate } from './start-on-intent';

/** On window: what the start script decided, then its gate (StartGate; lib/start-on-intent.ts). Here,
 * not there, so that a visitor's first visit carries none of start-on-intent.ts's other constants. */
export const START_GLOBAL = '__pxtStart';

/** This page's start gate (none in `npm run dev` or where the build prerendered nothing). */
export const startGateOf = () => (window as unknown as Record<string, StartGate | undefined>)[START_GLOBAL];

export function replayEarlyTap(): void {
  const gate = startGateOf();
  const stop = gate?.stop;
  if (!stop) return;
  gate.stop = undefined;
  const last = stop().at(-1);
  if (last instanceof HTMLElement && last.isConnected) last.click();
}
