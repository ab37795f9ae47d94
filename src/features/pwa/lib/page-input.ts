// Which page (location key) the player last tapped or typed on. Started by the shell's PwaMount, so
// a tap made before the idle PWA layer arrives (a loaded phone takes seconds) counts too.
let currentKey: string | null = null;
let firstKey: string | null = null;
let lastInputKey: string | null = null;
let listening = false;

const note = () => {
  lastInputKey = currentKey;
};

/** The player is on the page `key` now. */
export function watchPageInput(key: string): void {
  currentKey = key;
  firstKey ??= key;
  if (listening || typeof window === 'undefined') return;
  listening = true;
  window.addEventListener('pointerdown', note, true);
  window.addEventListener('keydown', note, true);
}

/** Whether the player tapped or typed on the page `key` (the one they are on). */
export const hadInputOn = (key: string) => lastInputKey === key;

/** The page (location key) the app started on. */
export const firstPageKey = () => firstKey;
