// Issue 25: a visitor's prerendered page starts the app at the first sign of intent, everything else
// at once (src/lib/start-on-intent.ts). The decision as a table, then the built HTML's own inline
// scripts (minified, as they ship) run in jsdom on a page like the prerendered one: which start at
// load and which wait, the tap that starts the app (busy at once, held, replayed once after
// hydration by src/lib/early-taps.ts), keyboard activation, native links, and what the start script
// does meanwhile for the visitor (prefetch, the service worker, /blog's list).
// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HOME_SCREEN_START_URL } from '@shared/constants';
import { prerenderedListId } from '@/features/blog/state/prerendered-list';
import { replayEarlyTap, startGateOf } from '@/lib/early-taps';
import {
  EARLY_TAP_ATTRIBUTE,
  EARLIER_PAGE,
  OFFLINE_READY_SHOWN,
  SERVICE_WORKER_SCOPE,
  SERVICE_WORKER_URL,
  START_FILES_ID,
  startsAtOnce,
  type StartFiles,
  type StartState,
} from '@/lib/start-on-intent';
import {
  BLOG_LIST_BLOCK,
  landingSwapScript,
  languageScript,
  minifyInline,
  PRE_PAINT_KEYS,
} from '../../scripts/pre-paint-scripts';

const visitor: StartState = {
  path: '/',
  page: '/',
  search: '',
  signedIn: false,
  telegram: false,
  standalone: false,
};

describe('which page starts the app at once, which waits for intent', () => {
  it.each<[string, Partial<StartState>, boolean]>([
    ['a visitor on the prerendered landing', {}, false],
    ['a visitor on the prerendered /blog', { path: '/blog', page: '/blog' }, false],
    ['/blog/ (trailing slash)', { path: '/blog/', page: '/blog' }, false],
    ['another page (index.html is every path)', { path: '/miner' }, true],
    ['/privacy', { path: '/privacy' }, true],
    ['a signed-in player', { signedIn: true }, true],
    ['an e-mail link', { search: '?modal=confirmRegistration&token=abc' }, true],
    ['a password link', { search: '?modal=restorePassword&token=abc' }, true],
    ['a referral link', { search: '?refCode=crew77' }, true],
    ['a payment return', { path: '/miner', search: '?order=12' }, true],
    ['a launch from the home screen', { search: HOME_SCREEN_START_URL.slice(1) }, true],
    ['the installed app in its own window', { standalone: true }, true],
    ['a Telegram Mini App', { telegram: true }, true],
    ['a build without prerender', { page: null }, true],
  ])('%s: at once = %s', (_, change, atOnce) => {
    expect(startsAtOnce({ ...visitor, ...change })).toBe(atOnce);
  });
});

const FILES: StartFiles = {
  page: '/',
  entry: '/assets/index-abc.js',
  modules: ['/assets/runtime-abc.js'],
  pageModules: ['/assets/landing-abc.js'],
  namespaces: ['common', 'errors', 'landing'],
};

/** The built page: the file list, the <head> script, #root with the prerendered page, the swap script. */
function loadPage(path = '/', files: StartFiles = FILES) {
  leavePage();
  history.replaceState(null, '', path);
  document.head.innerHTML = `<script type="application/json" id="${START_FILES_ID}">${JSON.stringify(files)}</script>`;
  document.body.innerHTML = `<div id="root" data-prerendered="${files.page}">
      <header><button type="button" id="connect">Connect</button><a id="blog" href="/blog">Blog</a></header>
      <main><p id="text">Mine PXT.</p><a id="privacy" href="/privacy">Privacy Policy</a>
        <a id="discord" href="https://discord.gg/pxt">Discord</a></main>
    </div><template id="landing-ru"><button type="button" id="connect">Подключить</button></template>`;
  new Function(minifyInline(languageScript()))();
  new Function(minifyInline(landingSwapScript()))();
  return startGateOf()!;
}

const appScripts = () =>
  [...document.querySelectorAll<HTMLScriptElement>('script[type=module]')].map((s) => new URL(s.src).pathname);
const links = (rel: string) =>
  [...document.head.querySelectorAll<HTMLLinkElement>(`link[rel=${rel}]`)].map((l) => new URL(l.href).pathname);
const el = (id: string) => document.getElementById(id)!;

function press(target: Element, type = 'pointerdown') {
  target.dispatchEvent(new Event(type, { bubbles: true, cancelable: true }));
}

/** The previous page's gate lets go of the document (a real page would have been unloaded). */
function leavePage() {
  const gate = startGateOf();
  gate?.stop?.();
  // …and its idle work and link marks do nothing any more (as once the app started and hydrated).
  if (gate) {
    gate.started ||= 'unloaded';
    gate.stop = undefined;
  }
  delete (window as unknown as Record<string, unknown>).__pxtStart;
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  leavePage();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  Object.defineProperty(navigator, 'serviceWorker', { value: undefined, configurable: true });
});

describe("the built page's start scripts", () => {
  it('a visitor on /: nothing of the app runs or is requested at load, no translation is preloaded', () => {
    const gate = loadPage();
    expect(gate.atOnce).toBe(false);
    expect(gate.started).toBe(false);
    expect(appScripts()).toEqual([]);
    expect(links('modulepreload')).toEqual([]);
    expect(links('preload')).toEqual([]);
    expect(el('connect').textContent).toBe('Connect');
  });

  it('a signed-in player: the prerendered page is dropped and the app starts at load, its modules fetched from <head>', () => {
    localStorage.setItem(PRE_PAINT_KEYS.tokens[1], '"refresh"');
    const gate = loadPage();
    expect(gate.started).toBe('load');
    expect(document.getElementById('root')!.childElementCount).toBe(0);
    expect(appScripts()).toEqual([FILES.entry]);
    expect(links('modulepreload')).toEqual([FILES.entry, ...FILES.modules, ...FILES.pageModules]);
    expect(links('preload')).toEqual([
      '/locales/en/common.json',
      '/locales/en/errors.json',
      '/locales/en/landing.json',
    ]);
  });

  it("another path (index.html answers /miner): at load, without the landing's chunk", () => {
    const gate = loadPage('/miner');
    expect(gate.started).toBe('load');
    expect(links('modulepreload')).toEqual([FILES.entry, ...FILES.modules]);
  });

  it('a query to act on: at load, the prerendered page kept and its taps still held until hydration', () => {
    const gate = loadPage('/?modal=confirmRegistration&token=abc');
    expect(gate.started).toBe('load');
    expect(appScripts()).toEqual([FILES.entry]);
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    el('connect').dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
  });

  it('a Mini App launch (its parameters in the hash): at load', () => {
    expect(loadPage('/#tgWebAppData=x&tgWebAppVersion=8.0').started).toBe('load');
  });

  it('the first press on Connect marks it busy at once and starts the app; the tap is made once, after hydration', () => {
    const gate = loadPage();
    let clicks = 0;
    el('connect').addEventListener('click', () => clicks++);
    press(el('connect'));
    expect(gate.started).toBe('pointerdown');
    expect(el('connect').getAttribute('aria-busy')).toBe('true');
    expect(el('connect').hasAttribute(EARLY_TAP_ATTRIBUTE)).toBe(true);
    expect(appScripts()).toEqual([FILES.entry]);
    // The app's modules and the translations, fetched now (compiled while the entry runs).
    expect(links('modulepreload')).toEqual([FILES.entry, ...FILES.modules, ...FILES.pageModules]);
    expect(links('preload')).toHaveLength(3);

    // The click that follows the press arrives before the page is hydrated: held.
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    el('connect').dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(clicks).toBe(0);

    // Hydrated (root-layout.tsx's EarlyTapReplay): the mark goes, the tap is made again, once.
    replayEarlyTap();
    expect(el('connect').hasAttribute('aria-busy')).toBe(false);
    expect(el('connect').hasAttribute(EARLY_TAP_ATTRIBUTE)).toBe(false);
    expect(clicks).toBe(1);
    replayEarlyTap();
    expect(clicks).toBe(1);
    // Taps after hydration are the app's own: no longer held.
    const later = new MouseEvent('click', { bubbles: true, cancelable: true });
    el('connect').dispatchEvent(later);
    expect(later.defaultPrevented).toBe(false);
    expect(clicks).toBe(2);
  });

  it('of several early taps, only the last is made again', () => {
    loadPage();
    const made: string[] = [];
    el('connect').addEventListener('click', () => made.push('connect'));
    el('blog').addEventListener('click', (e) => {
      e.preventDefault();
      made.push('blog');
    });
    el('connect').click();
    el('blog').click();
    expect(made).toEqual([]);
    replayEarlyTap();
    expect(made).toEqual(['blog']);
  });

  it('keyboard: a key starts the app; Enter on a focused button (its click) is held and made again', () => {
    const gate = loadPage();
    let clicks = 0;
    el('connect').addEventListener('click', () => clicks++);
    el('connect').dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true }));
    expect(gate.started).toBe('keydown');
    el('connect').dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    el('connect').click(); // what the browser makes of Enter on a button
    expect(el('connect').getAttribute('aria-busy')).toBe('true');
    expect(clicks).toBe(0);
    replayEarlyTap();
    expect(clicks).toBe(1);
  });

  it('focus moved onto a button (a screen reader) starts the app; plain text does not', () => {
    const gate = loadPage();
    el('text').dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    expect(gate.started).toBe(false);
    el('connect').dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    expect(gate.started).toBe('focusin');
  });

  it('a press on plain text starts the app, without marking anything busy', () => {
    const gate = loadPage();
    press(el('text'), 'touchstart');
    expect(gate.started).toBe('touchstart');
    expect(document.querySelector('[aria-busy]')).toBeNull();
  });

  it('links the browser follows itself (/privacy, another site) are neither held nor start the app', () => {
    const gate = loadPage();
    for (const id of ['privacy', 'discord']) {
      press(el(id));
      const click = new MouseEvent('click', { bubbles: true, cancelable: true });
      el(id).dispatchEvent(click);
      expect(click.defaultPrevented).toBe(false);
    }
    expect(gate.started).toBe(false);
    expect(appScripts()).toEqual([]);
  });

  it('a page of the app opened natively before the app ran here is marked as the next page; not once the app runs', () => {
    loadPage();
    el('privacy').dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    expect(sessionStorage.getItem(EARLIER_PAGE)).toBe('page');
    const next = loadPage('/privacy');
    expect(next.earlierPage).toBe(true);
    expect(next.offlineReady).toBe(false);
    // Hydrated (its taps no longer held): the app's own navigations and cards, as before.
    loadPage();
    replayEarlyTap();
    el('privacy').dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    expect(sessionStorage.getItem(EARLIER_PAGE)).toBeNull();
    // A link another site's: nothing to mark.
    loadPage();
    el('discord').dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    expect(sessionStorage.getItem(EARLIER_PAGE)).toBeNull();
  });

  it('a ctrl-click on an app link stays the browser’s (new tab)', () => {
    loadPage();
    const click = new MouseEvent('click', { bubbles: true, cancelable: true, ctrlKey: true });
    el('blog').dispatchEvent(click);
    expect(click.defaultPrevented).toBe(false);
  });

  it('the browser’s install offer before the app runs is kept (no infobar) for the app', () => {
    const gate = loadPage();
    const offer = new Event('beforeinstallprompt', { cancelable: true });
    window.dispatchEvent(offer);
    expect(offer.defaultPrevented).toBe(true);
    expect(gate.installPrompt).toBe(offer);
  });
});

interface FakeWorker extends EventTarget {
  state: string;
}
function fakeWorker(state: string): FakeWorker {
  return Object.assign(new EventTarget(), { state });
}
function setState(worker: FakeWorker, state: string) {
  worker.state = state;
  worker.dispatchEvent(new Event('statechange'));
}

describe('a visitor who never taps, once the page is loaded and idle', () => {
  function fakeServiceWorker(registration: EventTarget & { active: unknown; installing: unknown; waiting?: unknown }) {
    const container = Object.assign(new EventTarget(), {
      controller: null,
      register: vi.fn(() => Promise.resolve(registration)),
    });
    Object.defineProperty(navigator, 'serviceWorker', { value: container, configurable: true });
    return container;
  }

  it('gets the app prefetched (not run), and the service worker the app uses registered; its first install is noted', async () => {
    vi.useFakeTimers();
    const installing = fakeWorker('installing');
    const registration = Object.assign(new EventTarget(), { active: null, installing });
    const container = fakeServiceWorker(registration);
    const gate = loadPage();
    const noted = vi.fn();
    gate.onOfflineReady = noted;
    await vi.advanceTimersByTimeAsync(300);
    expect(links('prefetch')).toEqual([
      FILES.entry,
      ...FILES.modules,
      ...FILES.pageModules,
      '/locales/en/common.json',
      '/locales/en/errors.json',
      '/locales/en/landing.json',
    ]);
    expect(appScripts()).toEqual([]);
    expect(container.register).toHaveBeenCalledWith(SERVICE_WORKER_URL, { scope: SERVICE_WORKER_SCOPE });
    setState(installing, 'activated');
    expect(localStorage.getItem(OFFLINE_READY_SHOWN)).toBe('1');
    expect(gate.offlineReady).toBe(true);
    expect(noted).toHaveBeenCalledTimes(1);
    expect(gate.started).toBe(false);
    // Followed natively, /privacy is the next page: the notice goes with it.
    el('privacy').dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    expect(sessionStorage.getItem(EARLIER_PAGE)).toBe('offline-ready');
    // …where the gate finds it due, on a page that is already the next one.
    const next = loadPage('/privacy');
    expect(next.offlineReady).toBe(true);
    expect(next.earlierPage).toBe(true);
    expect(sessionStorage.getItem(EARLIER_PAGE)).toBeNull();
    // A reload of that page is a first page again.
    expect(loadPage('/privacy').earlierPage).toBe(false);
  });

  it('an update that waits starts the app (its Reload prompt); the offline notice is not due again', async () => {
    vi.useFakeTimers();
    localStorage.setItem(OFFLINE_READY_SHOWN, '1');
    const registration = Object.assign(new EventTarget(), {
      active: fakeWorker('activated'),
      installing: null as FakeWorker | null,
    });
    fakeServiceWorker(registration);
    const gate = loadPage();
    await vi.advanceTimersByTimeAsync(300);
    const next = fakeWorker('installing');
    registration.installing = next;
    registration.dispatchEvent(new Event('updatefound'));
    expect(gate.started).toBe(false);
    setState(next, 'installed');
    expect(gate.started).toBe('update');
    expect(gate.offlineReady).toBe(false);
  });

  it('an update found waiting when the page registers (it came before idle) starts the app too', async () => {
    vi.useFakeTimers();
    localStorage.setItem(OFFLINE_READY_SHOWN, '1');
    fakeServiceWorker(
      Object.assign(new EventTarget(), {
        active: fakeWorker('activated'),
        installing: null,
        waiting: fakeWorker('installed'),
      }),
    );
    const gate = loadPage();
    expect(gate.started).toBe(false);
    await vi.advanceTimersByTimeAsync(300);
    expect(gate.started).toBe('update');
  });

  it("/blog: the API's list is compared with the prerendered one; only a different one starts the app", async () => {
    const list = [{ id: 'a', lang: 'en', title: 'A', summary: 's', date: '2026-01-01', cover: null }];
    // The API's field order is its schema's, the build's the service's: the same list either way.
    const sameOtherOrder = [{ cover: null, date: '2026-01-01', id: 'a', lang: 'en', summary: 's', title: 'A' }];
    for (const [answer, started] of [
      [sameOtherOrder, false],
      [[...list, { ...list[0], id: 'b' }], 'blog'],
    ] as const) {
      vi.useFakeTimers();
      const fetch = vi.fn(() => Promise.resolve(new Response(JSON.stringify(answer))));
      vi.stubGlobal('fetch', fetch);
      leavePage();
      const gate = loadPage('/blog', { ...FILES, page: '/blog', pageModules: ['/assets/blog-abc.js'] });
      const block = document.createElement('script');
      block.type = 'application/json';
      block.id = `${BLOG_LIST_BLOCK}en`;
      block.textContent = JSON.stringify(list);
      document.body.appendChild(block);
      await vi.advanceTimersByTimeAsync(300);
      vi.useRealTimers();
      await vi.waitFor(() => expect(fetch).toHaveBeenCalledWith('/api/v1/blog/?lang=en'));
      await new Promise((r) => setTimeout(r, 0));
      expect(gate.started).toBe(started);
    }
  });

  it("/blog's JSON block is the one the page reads", () => {
    expect(`${BLOG_LIST_BLOCK}ru`).toBe(prerenderedListId('ru'));
  });
});
