// Issue 25: a visitor's prerendered page (`/` from index.html, `/blog` from blog.html) answers taps
// without the app's runtime until one needs it. The app (React, the router, i18next: 330 KB to
// parse and run, 207 KB of it React DOM) starts at the visitor's first sign of intent — a press, a
// key, focus — instead of at load; the tap that starts it shows a busy state at once and is made
// again once the page is hydrated (early-taps.ts). Its JavaScript is downloaded after load, at idle
// (`<link rel=prefetch>`: fetched, not compiled or run), so that first tap waits for no network.
// Everything else starts the app at once, as before: another page, a signed-in player, Telegram, a
// query the app must act on (`modal=…`, `token`, `refCode`, `order`…), a launch from the home screen.
//
// The page's own inline scripts (scripts/pre-paint-scripts.ts; the CSP allows them by hash) run the
// functions of this file, serialised with `.toString()`: `planStart` in <head> (before the first
// paint: which translations and modules to fetch now), `startGate` after #root (holding taps,
// starting the app, and what the app did at start for a visitor: the service worker registered at
// idle, the browser's install offer kept, /blog's list checked against the API). So each one must
// stand alone: no imports, no module constants, nothing but its parameters and the browser's
// globals. They are counted as what runs before the first tap (bench/browser.ts): keep them small.

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
  /** The page prerendered in this HTML: '/' or '/blog'. */
  page: string;
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

/** window[START_GLOBAL] once the gate runs: the plan, and what the app takes over. */
export interface StartGate extends StartPlan {
  /** Why the app started ('load', 'pointerdown', 'keydown', 'click', 'blog', 'update'…), false before. */
  started: string | false;
  /** Starts the app (once): its modules and translations, then its entry as a module script. */
  start(reason: string): void;
  /** Stops holding taps (the page is hydrated), clears the busy marks; the controls tapped, oldest first. */
  stop?(): Element[];
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

/**
 * After #root, once the pre-paint script kept, translated or dropped the prerendered page
 * (self-contained: runs serialised). With content in #root, taps on its buttons and app links are
 * held until the app has hydrated the page (early-taps.ts makes the last one again); a press marks
 * its control busy at once. Then either the app starts now, or — a visitor on the prerendered page —
 * at the first press, key or focus, and meanwhile, at idle after load: its files are prefetched, the
 * service worker registered, and /blog's list compared with the API's (a difference starts the app,
 * which shows the new list).
 */
export function startGate(o: GateOptions): void {
  const w = window as unknown as Record<string, unknown> & Window;
  const plan = w[o.global] as StartPlan | undefined;
  const root = document.getElementById('root');
  if (!plan || !root) return;
  const gate = plan as StartGate;
  gate.started = false;
  gate.installPrompt = null;
  let earlier: string | null = null;
  try {
    earlier = sessionStorage.getItem(o.earlierPage);
    sessionStorage.removeItem(o.earlierPage);
  } catch {
    // storage blocked: nothing was carried
  }
  gate.earlierPage = earlier !== null;
  gate.offlineReady = earlier === 'offline-ready';
  const atOnce = plan.atOnce || !root.firstElementChild;
  const link = (rel: string, href: string, as?: string) => {
    const l = document.createElement('link');
    l.rel = rel;
    l.crossOrigin = 'anonymous';
    if (as) l.as = as;
    l.href = href;
    document.head.appendChild(l);
  };
  const locales = () => plan.namespaces.map((ns) => `/locales/${plan.lng}/${ns}.json`);
  gate.start = (reason) => {
    if (gate.started) return;
    gate.started = reason;
    if (!plan.atOnce) {
      for (const href of locales()) link('preload', href, 'fetch');
      for (const href of plan.modules) link('modulepreload', href);
    }
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = 'anonymous';
    script.src = plan.files.entry;
    document.body.appendChild(script);
  };
  // Kept for the app's install button (sw-registration.ts takes it) instead of the browser's infobar.
  w.addEventListener('beforeinstallprompt', (e) => {
    e.preventDefault();
    gate.installPrompt = e;
  });

  if (root.firstElementChild) {
    // A link the browser follows natively needs no app here: another site, a new tab, a public page.
    const held =
      'button, a[href^="/"]:not([href^="//"]):not([target])' + o.nativePaths.map((p) => `:not([href="${p}"])`).join('');
    const taps: Element[] = [];
    const marked: Element[] = [];
    const control = (e: Event) => {
      const t = e.target as Element | null;
      const c = t && t.closest ? t.closest(held) : null;
      return c && root.contains(c) ? c : null;
    };
    const busy = (c: Element) => {
      if (c.hasAttribute('aria-busy')) return;
      c.setAttribute('aria-busy', 'true');
      c.setAttribute(o.busyAttribute, '');
      marked.push(c);
    };
    const press = (e: Event) => {
      const c = control(e);
      if (c) busy(c);
      // A press on a link the browser follows itself: the next page starts what it needs.
      else if ((e.target as Element | null)?.closest?.('a[href]')) return;
      gate.start(e.type);
    };
    const intent = (e: Event) => gate.start(e.type);
    // Focus on a button or app link (a screen reader moves it without keys); not on a link the
    // browser follows itself, which a mouse press focuses on its way to the next page.
    const focus = (e: Event) => {
      if (control(e)) gate.start(e.type);
    };
    // A mouse over a button or link: a click is likely to follow (a desktop's first sign of intent).
    const hover = (e: PointerEvent) => {
      if (e.pointerType === 'mouse' && control(e)) gate.start('pointerover');
    };
    const hold = (e: MouseEvent) => {
      const c = control(e);
      const modified = e.ctrlKey || e.metaKey || e.shiftKey || e.altKey;
      // A modified click on a link (new tab, new window) stays the browser's.
      if (!c || (c.tagName === 'A' && modified)) return;
      e.preventDefault();
      e.stopPropagation();
      busy(c);
      taps.push(c);
      gate.start('click');
    };
    // A page of the app opened natively (a click nobody prevented on one of its links, in this tab)
    // before the app ran on this one: the next page, for what waits for one (EARLIER_PAGE).
    w.addEventListener('click', (e) => {
      const t = e.target as Element | null;
      const a = t && t.closest ? t.closest('a[href^="/"]:not([href^="//"]):not([target])') : null;
      if (
        !gate.stop ||
        !a ||
        !root.contains(a) ||
        e.defaultPrevented ||
        e.ctrlKey ||
        e.metaKey ||
        e.shiftKey ||
        e.altKey
      )
        return;
      try {
        sessionStorage.setItem(o.earlierPage, gate.offlineReady ? 'offline-ready' : 'page');
      } catch {
        // storage blocked: that page is a first page, as a new visit is
      }
    });
    const listeners: [string, EventListener][] = [['click', hold as EventListener]];
    if (!atOnce)
      listeners.push(
        ['pointerdown', press],
        ['touchstart', press],
        ['keydown', intent],
        ['focusin', focus],
        ['pointerover', hover as EventListener],
      );
    for (const [type, fn] of listeners)
      document.addEventListener(type, fn, { capture: true, passive: type !== 'click' });
    gate.stop = () => {
      for (const [type, fn] of listeners) document.removeEventListener(type, fn, { capture: true });
      for (const c of marked) {
        c.removeAttribute('aria-busy');
        c.removeAttribute(o.busyAttribute);
      }
      return taps;
    };
  }
  if (atOnce) {
    gate.start('load');
    return;
  }

  const idle = () => {
    if (gate.started) return;
    for (const href of [...plan.modules, ...locales()]) link('prefetch', href);
    registerWorker();
    if (plan.files.page === o.blog.page) checkBlogList();
  };
  const whenIdle = () =>
    typeof requestIdleCallback === 'function' ? requestIdleCallback(idle, { timeout: 2000 }) : setTimeout(idle, 200);
  // After load and after the page's largest paint (plus two frames, for images painted after load):
  // nothing fetched then is on the way to that paint, in the browser or in Lighthouse's simulation
  // (its graph of the LCP counts every request that ended before it).
  const afterLoad = () => {
    const frames = () => requestAnimationFrame(() => requestAnimationFrame(whenIdle));
    if (
      typeof PerformanceObserver === 'function' &&
      PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint')
    )
      new PerformanceObserver((_, observer) => {
        observer.disconnect();
        frames();
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    else frames();
  };
  if (document.readyState === 'complete') afterLoad();
  else w.addEventListener('load', afterLoad);

  // Until the app runs, the gate does what the app did with the service worker for a visitor. From
  // now: reload when another tab put a new version in charge (this page's files would be gone from
  // the new worker's cache); a worker that claims a page it did not control is its first install.
  const sw = navigator.serviceWorker;
  let controlled = !!sw?.controller;
  sw?.addEventListener('controllerchange', () => {
    if (controlled && !gate.started) location.reload();
    controlled = true;
  });

  // At idle: the app's registration (same address and scope; workbox-window finds this one later).
  // Its first install is noted (the offline notice); an update that waits, found now or later,
  // starts the app for its Reload prompt.
  function registerWorker() {
    if (!sw) return;
    sw.register(o.serviceWorker.url, { scope: o.serviceWorker.scope })
      .then((reg) => {
        const first = reg.active ? null : reg.installing;
        first?.addEventListener('statechange', () => {
          if (first.state === 'activated') offlineReady();
        });
        const update = (next: ServiceWorker | null) => {
          if (!reg.active || !next) return;
          if (next.state === 'installed') gate.start('update');
          else
            next.addEventListener('statechange', () => {
              if (next.state === 'installed') gate.start('update');
            });
        };
        update(reg.waiting);
        if (!first) update(reg.installing);
        reg.addEventListener('updatefound', () => update(reg.installing));
      })
      .catch(() => undefined);
  }

  function offlineReady() {
    try {
      if (localStorage.getItem(o.offlineReadyShown)) return;
      localStorage.setItem(o.offlineReadyShown, '1');
    } catch {
      return;
    }
    gate.offlineReady = true;
    gate.onOfflineReady?.();
  }

  // The prerendered list is the build's; the app used to refresh it from the API after hydrating.
  // The same answer changes nothing; another one (an article added since) starts the app to show it.
  function checkBlogList() {
    const block = document.getElementById(o.blog.block + plan!.lng);
    if (!block) return;
    const canonical = (list: Record<string, unknown>[]) => {
      const keys = new Set<string>();
      for (const a of list) for (const k of Object.keys(a)) keys.add(k);
      return JSON.stringify(list, [...keys].sort());
    };
    fetch(o.blog.api + plan!.lng)
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then((list: Record<string, unknown>[]) => {
        if (canonical(list) !== canonical(JSON.parse(block.textContent || '[]'))) gate.start('blog');
      })
      .catch(() => undefined);
  }
}
