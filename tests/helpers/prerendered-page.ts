// The built page of a visitor (issue 25) in jsdom, for the tests of its start scripts
// (tests/unit/start-on-intent.test.ts, visitor-idle-work.test.ts): the file list, the <head>
// script, #root with a prerendered page and the swap script, run as they ship (minified).
import { afterEach, beforeEach, vi } from 'vitest';
import { startGateOf } from '@/lib/early-taps';
import { START_FILES_ID, type StartFiles } from '@/lib/start-on-intent';
import { landingSwapScript, languageScript, minifyInline } from '../../scripts/pre-paint-scripts';

export const FILES: StartFiles = {
  page: '/',
  entry: '/assets/index-abc.js',
  modules: ['/assets/runtime-abc.js'],
  pageModules: ['/assets/landing-abc.js'],
  namespaces: ['common', 'errors', 'landing'],
};

/** The built page: the file list, the <head> script, #root with the prerendered page, the swap script. */
export function loadPage(path = '/', files: StartFiles = FILES) {
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

/** app.html, the other paths' shell: the same scripts around an empty #root, no page, no Russian copy. */
export const SHELL_FILES: StartFiles = { ...FILES, page: null, pageModules: [], namespaces: ['common', 'errors'] };
export function loadShell(path: string) {
  leavePage();
  history.replaceState(null, '', path);
  document.head.innerHTML = `<script type="application/json" id="${START_FILES_ID}">${JSON.stringify(SHELL_FILES)}</script><link rel="manifest" href="/manifest.webmanifest">`;
  document.body.innerHTML = '<div id="root"></div>';
  new Function(minifyInline(languageScript()))();
  new Function(minifyInline(landingSwapScript()))();
  return startGateOf()!;
}

export const appScripts = () =>
  [...document.querySelectorAll<HTMLScriptElement>('script[type=module]')].map((s) => new URL(s.src).pathname);
export const links = (rel: string) =>
  [...document.head.querySelectorAll<HTMLLinkElement>(`link[rel=${rel}]`)].map((l) => new URL(l.href).pathname);
export const el = (id: string) => document.getElementById(id)!;

export function press(target: Element, type = 'pointerdown') {
  target.dispatchEvent(new Event(type, { bubbles: true, cancelable: true }));
}

/** The previous page's gate lets go of the document (a real page would have been unloaded). */
export function leavePage() {
  const gate = startGateOf();
  gate?.stop?.();
  // …and its idle work and link marks do nothing any more (as once the app started and hydrated).
  if (gate) {
    gate.started ||= 'unloaded';
    gate.stop = undefined;
  }
  delete (window as unknown as Record<string, unknown>).__pxtStart;
}

/** Each test starts on a fresh page: storage cleared, the last page's gate let go, timers and stubs restored. */
export function freshPageEachTest(): void {
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
}
