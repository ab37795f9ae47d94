// The inline scripts of the built index.html (scripts/vite-plugin-prerender.ts puts them there,
// minified; the server's CSP allows them by hash). Kept apart from the plugin so unit tests can run
// them in jsdom. Besides the language and the prerendered page, they start the app: the functions
// of src/lib/start-on-intent.ts, serialised into them.
import { minify_sync } from 'terser';
import { API_BASE } from '../shared/constants';
import { START_GLOBAL } from '../src/lib/early-taps';
import { detectLanguage } from '../src/lib/language-detect';
import {
  EARLY_TAP_ATTRIBUTE,
  type GateOptions,
  NATIVE_PATHS,
  EARLIER_PAGE,
  OFFLINE_READY_SHOWN,
  planStart,
  SERVICE_WORKER_SCOPE,
  SERVICE_WORKER_URL,
  START_FILES_ID,
  startsAtOnce,
  type StartOptions,
} from '../src/lib/start-on-intent';
import { startGate } from '../src/lib/start-gate';
import { detectTelegramLaunch, LAUNCH_PARAMS_KEY } from '../src/lib/telegram-host';

/** Must equal STORAGE_KEYS.language (shared/constants.ts) and TOKEN_STORAGE_KEYS (src/lib/session.ts); tests/unit/pre-paint-language.test.ts checks. */
export const PRE_PAINT_KEYS = { language: 'i18nextLng', tokens: ['pxt.accessToken', 'pxt.refreshToken'] } as const;
/**
 * The translations a page shows first: the <head> script preloads them (or, on a visitor's page,
 * prefetches them after load); the build lists them for scripts/first-visit.mjs. Self-contained:
 * the script runs it serialised.
 */
export function pageNamespaces(path: string): string[] {
  const namespaces = ['common', 'errors'];
  if (path === '/') namespaces.push('landing');
  if (/^\/blog\/?$/.test(path)) namespaces.push('blog');
  return namespaces;
}

/**
 * The build's form of an inline script: minified (Terser, as the app's chunks), so what runs
 * before the first tap stays small. The CSP hashes are taken of the written HTML, so of this text.
 */
export function minifyInline(code: string): string {
  const out = minify_sync(code, { ecma: 2020, compress: { passes: 2 }, mangle: true, format: { comments: false } });
  if (!out.code) throw new Error('minifyInline: Terser returned nothing');
  return out.code;
}
export const RU_TEMPLATE_ID = 'landing-ru';
/** On #root: the path of the page prerendered in it ('/' in index.html, '/blog' in blog.html). */
export const PRERENDERED_PATH_ATTRIBUTE = 'data-prerendered';
/** On the JSON blocks of the page's data (the blog's list): dropped with the page. */
export const PRERENDERED_DATA_ATTRIBUTE = 'data-prerendered-data';

/** The id of /blog's JSON block of a language's list is this + the language (features/blog/state/prerendered-list.ts). */
export const BLOG_LIST_BLOCK = 'blog-list-';

const START_OPTIONS: StartOptions = {
  filesId: START_FILES_ID,
  global: START_GLOBAL,
  tokens: PRE_PAINT_KEYS.tokens,
  telegramKey: LAUNCH_PARAMS_KEY,
};

const GATE_OPTIONS: GateOptions = {
  global: START_GLOBAL,
  nativePaths: NATIVE_PATHS,
  busyAttribute: EARLY_TAP_ATTRIBUTE,
  serviceWorker: { url: SERVICE_WORKER_URL, scope: SERVICE_WORKER_SCOPE },
  offlineReadyShown: OFFLINE_READY_SHOWN,
  earlierPage: EARLIER_PAGE,
  blog: { page: '/blog', api: `${API_BASE}/blog/?lang=`, block: BLOG_LIST_BLOCK },
};

/**
 * The <head> script: one language detection; then, in a build that prerendered the page (its file
 * list is in the HTML), whether the app starts at once (src/lib/start-on-intent.ts); then the
 * preloads of that language's translations, unless the app waits for the visitor's intent.
 */
export function languageScript(): string {
  return `
      (function () {
        try {
          var detect = ${detectLanguage.toString()};
          var lng = detect(localStorage.getItem(${JSON.stringify(PRE_PAINT_KEYS.language)}), navigator.languages || [navigator.language]);
          document.documentElement.lang = lng;
          var namespaces = (${pageNamespaces.toString()})(location.pathname);
          var plan = (${planStart.toString()})(${JSON.stringify(START_OPTIONS)}, lng, namespaces, ${startsAtOnce.toString()}, ${detectTelegramLaunch.toString()});
          if (plan && !plan.atOnce) return;
          namespaces.forEach(function (ns) {
            var l = document.createElement('link');
            l.rel = 'preload'; l.as = 'fetch'; l.crossOrigin = 'anonymous';
            l.href = '/locales/' + lng + '/' + ns + '.json';
            document.head.appendChild(l);
          });
        } catch (e) {}
      })();
    `;
}

/** The script after #root: keep, translate or drop the prerendered page before the first paint.
 * The same text in index.html, blog.html and app.html (the page's path is on #root), so one CSP hash allows all. */
export function landingSwapScript(): string {
  return `(function () {
      var root = document.getElementById('root');
      var ru = document.getElementById(${JSON.stringify(RU_TEMPLATE_ID)});
      var signedIn = false;
      try {
        signedIn = ${JSON.stringify(PRE_PAINT_KEYS.tokens)}.some(function (k) { var v = localStorage.getItem(k); return v !== null && v !== 'null'; });
      } catch (e) {}
      var path = location.pathname.length > 1 ? location.pathname.replace(/\\/$/, '') : location.pathname;
      if (path !== root.getAttribute(${JSON.stringify(PRERENDERED_PATH_ATTRIBUTE)}) || signedIn) {
        root.textContent = '';
        document.querySelectorAll('[${PRERENDERED_DATA_ATTRIBUTE}]').forEach(function (d) { d.remove(); });
      } else if (document.documentElement.lang === 'ru') root.innerHTML = ru.innerHTML;
      // app.html (every other path) has no page, so no Russian copy of it.
      if (ru) ru.remove();
      // Russian players' install manifest before Chromium first reads the link (src/lib/language.ts
      // points it there again later): otherwise it read the English one and re-read only in its own time.
      if (document.documentElement.lang === 'ru') {
        var manifest = document.querySelector('link[rel="manifest"]');
        if (manifest) manifest.setAttribute('href', '/manifest.ru.webmanifest');
      }
      // Taps held until the app answers them (src/lib/early-taps.ts), and the app started now or on
      // the visitor's first intent (src/lib/start-on-intent.ts). Links of the app are held too: a
      // native load of a guarded page (an article of /blog's list) would send a visitor to / instead
      // of the sign-in the app opens over the list.
      try {
        (${startGate.toString()})(${JSON.stringify(GATE_OPTIONS)});
      } catch (e) {}
      // Whatever failed above, a page with the app's files never stays without the app.
      var files = document.getElementById(${JSON.stringify(START_FILES_ID)});
      var gate = window[${JSON.stringify(START_GLOBAL)}];
      if (files && !(gate && gate.start)) {
        var app = document.createElement('script');
        app.type = 'module';
        app.src = JSON.parse(files.textContent).entry;
        document.body.appendChild(app);
      }
    })();`;
}
