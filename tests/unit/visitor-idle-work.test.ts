// Issue 25: what a visitor's prerendered page does for a visitor who never taps, once it is loaded
// and idle (src/lib/start-gate.ts): the app prefetched but not run, the service worker registered,
// an update that waits starting the app, and /blog's list checked against the API.
// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { prerenderedListId } from '@/features/blog/state/prerendered-list';
import { EARLIER_PAGE, OFFLINE_READY_SHOWN, SERVICE_WORKER_SCOPE, SERVICE_WORKER_URL } from '@/lib/start-on-intent';
import { BLOG_LIST_BLOCK } from '../../scripts/pre-paint-scripts';
import { appScripts, el, FILES, freshPageEachTest, leavePage, links, loadPage } from '../helpers/prerendered-page';

freshPageEachTest();

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
