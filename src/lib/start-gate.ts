// The start script after #root of a prerendered page (issue 25, lib/start-on-intent.ts): holds the
// taps on the page, starts the app at once or on a visitor's first intent, and meanwhile does what
// the app did at start for a visitor (the service worker registered at idle, the browser's install
// offer kept, /blog's list checked against the API). It runs serialised with `.toString()` in the
// page's inline script (scripts/pre-paint-scripts.ts): self-contained, no imports but types.
import type { GateOptions, HeldTap, StartGate, StartPlan } from './start-on-intent';

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
    // A link of this site, in this tab.
    const appLink = 'a[href^="/"]:not([href^="//"]):not([target])';
    // A link the browser follows natively needs no app here: another site, a new tab, a public page.
    const held = `button, ${appLink}` + o.nativePaths.map((p) => `:not([href="${p}"])`).join('');
    const modified = (e: MouseEvent) => e.ctrlKey || e.metaKey || e.shiftKey || e.altKey;
    const taps: HeldTap[] = [];
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
      // A modified click on a link (new tab, new window) stays the browser's.
      if (!c || (c.tagName === 'A' && modified(e))) return;
      e.preventDefault();
      e.stopPropagation();
      busy(c);
      // Where it sits: hydrating may replace it (early-taps.ts).
      const path: number[] = [];
      for (let n: Element = c; n !== root && n.parentElement; n = n.parentElement)
        path.unshift(Array.prototype.indexOf.call(n.parentElement.children, n));
      taps.push({ control: c, path });
      gate.start('click');
    };
    // A page of the app opened natively (a click nobody prevented on one of its links, in this tab)
    // before the app ran on this one: the next page, for what waits for one (EARLIER_PAGE).
    w.addEventListener('click', (e) => {
      const t = e.target as Element | null;
      const a = t && t.closest ? t.closest(appLink) : null;
      if (!gate.stop || !a || !root.contains(a) || e.defaultPrevented || modified(e)) return;
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
