// A visitor's tap on a prerendered page (the landing, /blog) before the app hydrated it did nothing
// (a button without its handler yet) or loaded a guarded page natively (a link). The page's start
// script (lib/start-on-intent.ts, run inline by the built HTML) holds such taps back — a click, or
// a key that activates a focused button or link — and marks the control busy; on a visitor's page
// the first of them is also what starts the app. Once the page is hydrated the busy marks go and
// the last tap is made again, now with its handler (on the control in its place if React replaced it).
import type { HeldTap, StartGate } from './start-on-intent';

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
  const target = last && (last.control.isConnected ? last.control : inItsPlace(last));
  if (target instanceof HTMLElement) target.click();
}

/**
 * The control React put where the tapped one was. Hydrating replaces the page's part whose first
 * render differs from the prerendered one (a Telegram sign-in that landed meanwhile: the landing's
 * "Start mining" is a player's "Open the miner" now), and the tap held on the old one was lost (CI).
 * Only the same kind of control (tag, type, class, link address) takes it; its text may differ.
 */
function inItsPlace({ control, path }: HeldTap): Element | null {
  let node: Element | null | undefined = document.getElementById('root');
  for (const i of path) node = node?.children[i];
  const same = (a: string) => node?.getAttribute(a) === control.getAttribute(a);
  return node && node.tagName === control.tagName && ['type', 'class', 'href'].every(same) ? node : null;
}
