// Issue 25: a visitor's prerendered page (`/` from index.html, `/blog` from blog.html) answers taps
// without the app's runtime until one needs it. The app (React, the router, i18next: 330 KB to
// parse and run, 207 KB of it React DOM) starts at the visitor's first sign of intent — a press, a
// key, focus — instead of at load; the tap that starts it shows a busy state at once and is made
// again once the page is hydrated (early-taps.ts). Its JavaScript is downloaded after load, at idle
// (`<link rel=prefetch>`: fetched, not compiled or run), so that first tap waits for no network.
// Everything else starts the app at once, as before: another page, a signed-in player, Telegram, a
// query the app must act on (`modal=…`, `token`, `refCode`, `order`…), a launch from the home screen.
//
// The page's own inline scripts (scripts/pre-paint-scripts.ts; the CSP allows them by hash) run
// functions serialised with `.toString()`: `planStart` (here) in <head>, before the first paint:
// which translations and modules to fetch now; `startGate` (start-gate.ts) after #root. So each one
// must stand alone: no imports, no module constants, nothing but its parameters and the browser's
// globals. They are counted as what runs before the first tap (bench/browser.ts): keep them small.
// This file holds the decision, the plan and what the app and the build share with the scripts.

/** The JSON block in <head> the build writes (scripts/vite-plugin-prerender.ts): the page's files. */
export const START_FILES_ID = 'pxt-start';
/** The service worker the app registers (features/pwa/lib/sw-registration.ts); the gate registers the same. */
export const SERVICE_WORKER_URL = '/sw.js';
export const SERVICE_WORKER_SCOPE = '/';
/** Public pages a visitor's link opens natively, the app not needed on this page (a new page starts it there). */
export const NATIVE_PATHS = ['/privacy', '/terms'] as const;
/** The worker's first install, noticed by the gate: the one-time "ready to work offline" notice is
 * due. localStorage, set once the notice was claimed (the app's own key, sw-registration.ts). */
export const OFFLINE_READY_SHOWN = 'pxt.offlineReadyShown';
/**
 * sessionStorage, set when the visitor follows a link natively (NATIVE_PATHS) from a page the app
 * never ran on: 'page', or 'offline-ready' when the offline notice was due there. The new page is
 * then the app's "next page" already, where cards that wait for one show (the app ran on the first
 * page before issue 25 and the link was its own navigation; features/pwa/lib/from-next-page.ts).
 */
export const EARLIER_PAGE = 'pxt.earlierPage';
/** The gate's mark on a control pressed before the app answers (global.css draws it; aria-busy says it). */
export const EARLY_TAP_ATTRIBUTE = 'data-early-tap';

/** The files of the prerendered page, as the build lists them in the START_FILES_ID block. */
export interface StartFiles {
  /** The page prerendered in this HTML: '/' or '/blog'; null in app.html, the other paths' shell. */
  page: string | null;
  /** The app's entry module (src/app/main.tsx) and the modules it imports statically. */
  entry: string;
  modules: string[];
  /** The page's route chunk and its static imports (what main.tsx loads before hydrating). */
  pageModules: string[];
  /** The translations the page shows first (for scripts/first-visit.mjs; the script works them out itself). */
  namespaces: string[];
}

/** What the start decision looks at (all of it known in <head>, before the first paint). */
export interface StartState {
  /** location.pathname */
  path: string;
  /** The page prerendered in this HTML, null where none is (a build without prerender). */
  page: string | null;
  /** location.search */
  search: string;
  /** Tokens stored: a player (the prerendered page is dropped for theirs). */
  signedIn: boolean;
  /** Opened as a Telegram Mini App (lib/telegram-host.ts). */
  telegram: boolean;
  /** Opened as the installed app (its own window, the home screen). */
  standalone: boolean;
}

/** True where the app starts at load as before; false for a visitor on a prerendered page, who gets it on intent. */
export function startsAtOnce(s: StartState): boolean {
  const path = s.path.length > 1 ? s.path.replace(/\/$/, '') : s.path;
  return s.page === null || path !== s.page || s.signedIn || s.search !== '' || s.telegram || s.standalone;
}

/** What the <head> script leaves on window[START_GLOBAL]. */
export interface StartPlan {
  lng: string;
  /** Translations the page shows: preloaded now when the app starts at once, prefetched at idle otherwise. */
  namespaces: string[];
  files: StartFiles;
  atOnce: boolean;
  /** Modules the start loads (entry, its imports, and the page's chunk on the prerendered page). */
  modules: string[];
}

/** Constants the inline scripts pass to the functions below (pre-paint-scripts.ts writes them in). */
export interface StartOptions {
  filesId: string;
  global: string;
  tokens: readonly string[];
  telegramKey: string;
}

/**
 * <head>, before the first paint (self-contained: runs serialised). Reads the build's file list,
 * decides, and when the app starts at once fetches its modules now (modulepreload, as the built
 * HTML did). Returns null where the HTML carries no file list (`npm run dev`, a build without
 * prerender): the app's module script is then in the HTML as Vite wrote it.
 */
export function planStart(
  o: StartOptions,
  lng: string,
  namespaces: string[],
  atOnce: (s: StartState) => boolean,
  telegram: (key: string) => boolean,
): StartPlan | null {
  const block = document.getElementById(o.filesId);
  if (!block) return null;
  const files = JSON.parse(block.textContent || '{}') as StartFiles;
  let signedIn = false;
  try {
    signedIn = o.tokens.some((k) => {
      const v = localStorage.getItem(k);
      return v !== null && v !== 'null';
    });
  } catch {
    // storage blocked: a visitor
  }
  const path = location.pathname.length > 1 ? location.pathname.replace(/\/$/, '') : location.pathname;
  const display = '(display-mode: standalone), (display-mode: fullscreen), (display-mode: minimal-ui)';
  const plan: StartPlan = {
    lng,
    namespaces,
    files,
    atOnce: atOnce({
      path,
      page: files.page,
      search: location.search,
      signedIn,
      telegram: telegram(o.telegramKey),
      standalone:
        (typeof matchMedia === 'function' && matchMedia(display).matches) ||
        (navigator as Navigator & { standalone?: boolean }).standalone === true,
    }),
    modules: [files.entry, ...files.modules, ...(path === files.page ? files.pageModules : [])],
  };
  if (plan.atOnce) {
    for (const href of plan.modules) {
      const l = document.createElement('link');
      l.rel = 'modulepreload';
      l.crossOrigin = 'anonymous';
      l.href = href;
      document.head.appendChild(l);
    }
  }
  (window as unknown as Record<string, unknown>)[o.global] = plan;
  return plan;
}

/** Constants of the gate (pre-paint-scripts.ts writes them in). */
export interface GateOptions {
  global: string;
  nativePaths: readonly string[];
  busyAttribute: string;
  serviceWorker: { url: string; scope: string };
  offlineReadyShown: string;
  earlierPage: string;
  /** /blog's list: the page, the API's address (+ language), the id of its JSON block (+ language). */
  blog: { page: string; api: string; block: string };
}

/** A tap the gate held: the control, and its place under #root (the element-child index at each level). */
export interface HeldTap {
  control: Element;
  path: number[];
}

/** window[START_GLOBAL] once the gate runs: the plan, and what the app takes over. */
export interface StartGate extends StartPlan {
  /** Why the app started ('load', 'pointerdown', 'keydown', 'click', 'blog', 'update'…), false before. */
  started: string | false;
  /** Starts the app (once): its modules and translations, then its entry as a module script. */
  start(reason: string): void;
  /** Stops holding taps (the page is hydrated), clears the busy marks; the taps held, oldest first. */
  stop?(): HeldTap[];
  /** The browser's install offer, kept (its mini-infobar prevented) until the app takes it. */
  installPrompt: Event | null;
  /** The offline notice is due: the worker's first install ended on this page, or on the page the
   * visitor left natively for this one; the app takes it over (sw-registration.ts). */
  offlineReady: boolean;
  /** The app takes it over when the install ends while it runs. */
  onOfflineReady?: () => void;
  /** This page was opened by a link the visitor followed natively from one the app never ran on. */
  earlierPage: boolean;
}
