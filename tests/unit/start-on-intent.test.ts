// Issue 25: a visitor's prerendered page starts the app at the first sign of intent, everything else
// at once (src/lib/start-on-intent.ts). The decision as a table, then the built HTML's own inline
// scripts (minified, as they ship) run in jsdom on a page like the prerendered one: which start at
// load and which wait, the tap that starts the app (busy at once, held, replayed once after
// hydration by src/lib/early-taps.ts), keyboard activation and native links. What the start script
// does meanwhile for a visitor who does not tap is visitor-idle-work.test.ts.
// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { HOME_SCREEN_START_URL } from '@shared/constants';
import { replayEarlyTap } from '@/lib/early-taps';
import { EARLY_TAP_ATTRIBUTE, EARLIER_PAGE, startsAtOnce, type StartState } from '@/lib/start-on-intent';
import { PRE_PAINT_KEYS } from '../../scripts/pre-paint-scripts';
import {
  appScripts,
  el,
  FILES,
  freshPageEachTest,
  links,
  loadPage,
  loadShell,
  press,
  SHELL_FILES,
} from '../helpers/prerendered-page';

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

freshPageEachTest();

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

  it.each(['en', 'ru'])(
    'app.html (every path but / and /blog), in %s: at load, the entry and its imports preloaded, nothing to drop or translate',
    (lng) => {
      localStorage.setItem(PRE_PAINT_KEYS.language, lng);
      const gate = loadShell('/miner');
      expect(gate.atOnce).toBe(true);
      expect(gate.started).toBe('load');
      expect(appScripts()).toEqual([SHELL_FILES.entry]);
      expect(links('modulepreload')).toEqual([SHELL_FILES.entry, ...SHELL_FILES.modules]);
      expect(links('preload')).toEqual([`/locales/${lng}/common.json`, `/locales/${lng}/errors.json`]);
      expect(links('manifest')).toEqual([lng === 'ru' ? '/manifest.ru.webmanifest' : '/manifest.webmanifest']);
      expect(document.getElementById('root')!.childElementCount).toBe(0);
    },
  );

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

  it('a tap held on a control that hydrating replaced is made on the one in its place, of the same kind only', () => {
    // React client-renders a part whose first render differs from the prerendered page (CI: the
    // Telegram sign-in landed before the landing hydrated, so its CTA now said "Open the miner").
    loadPage();
    el('connect').click();
    const fresh = document.createElement('button');
    fresh.type = 'button';
    fresh.textContent = 'Open the miner';
    let made = 0;
    fresh.addEventListener('click', () => made++);
    el('connect').replaceWith(fresh);
    replayEarlyTap();
    expect(made).toBe(1);

    // Another kind of control in its place (Connect became the player block): not a tap on it.
    loadPage();
    el('connect').click();
    const other = document.createElement('button');
    other.type = 'button';
    other.className = 'player__block';
    other.addEventListener('click', () => made++);
    el('connect').replaceWith(other);
    replayEarlyTap();
    expect(made).toBe(1);
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
