// The inline scripts of the built index.html (scripts/vite-plugin-prerender.ts puts them there; the
// server's CSP allows them by hash). Kept apart from the plugin so unit tests can run them in jsdom.
import { EARLY_TAPS_GLOBAL } from '../src/lib/early-taps';
import { detectLanguage } from '../src/lib/language-detect';

/** Must equal STORAGE_KEYS.language (shared/constants.ts) and TOKEN_STORAGE_KEYS (src/lib/session.ts); tests/unit/pre-paint-language.test.ts checks. */
export const PRE_PAINT_KEYS = { language: 'i18nextLng', tokens: ['pxt.accessToken', 'pxt.refreshToken'] } as const;
/** Namespaces preloaded by the pre-paint script (scripts/first-visit.mjs reads this list from the HTML). */
const PRELOADED_NAMESPACES = ['common', 'errors'];
export const RU_TEMPLATE_ID = 'landing-ru';
/** On #root: the path of the page prerendered in it ('/' in index.html, '/blog' in blog.html). */
export const PRERENDERED_PATH_ATTRIBUTE = 'data-prerendered';
/** On the JSON blocks of the page's data (the blog's list): dropped with the page. */
export const PRERENDERED_DATA_ATTRIBUTE = 'data-prerendered-data';

/** The <head> script: one language detection, then the preloads of that language's translations. */
export function languageScript(): string {
  return `
      (function () {
        try {
          var detect = ${detectLanguage.toString()};
          var lng = detect(localStorage.getItem(${JSON.stringify(PRE_PAINT_KEYS.language)}), navigator.languages || [navigator.language]);
          document.documentElement.lang = lng;
          var namespaces = ${JSON.stringify(PRELOADED_NAMESPACES).replace(/"/g, "'")};
          if (location.pathname === '/') namespaces.push('landing');
          if (/^\\/blog\\/?$/.test(location.pathname)) namespaces.push('blog');
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
 * The same text in index.html and blog.html (the page's path is on #root), so one CSP hash allows both. */
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
      ru.remove();
      // Russian players' install manifest before Chromium first reads the link (src/lib/language.ts
      // points it there again later): otherwise it read the English one and re-read only in its own time.
      if (document.documentElement.lang === 'ru') {
        var manifest = document.querySelector('link[rel="manifest"]');
        if (manifest) manifest.setAttribute('href', '/manifest.ru.webmanifest');
      }
      if (!root.firstElementChild) return;
      // Taps on the painted page before the app can answer them are held for src/lib/early-taps.ts.
      var taps = [];
      // Links of the app too: a native load of a guarded page (an article of /blog's list) would
      // send a visitor to / instead of the sign-in the app opens over the list.
      function hold(e) {
        var button = e.target && e.target.closest ? e.target.closest('button, a[href^="/"]:not([href^="//"]):not([target])') : null;
        if (!button || !root.contains(button)) return;
        e.preventDefault();
        e.stopPropagation();
        taps.push(button);
      }
      document.addEventListener('click', hold, true);
      window[${JSON.stringify(EARLY_TAPS_GLOBAL)}] = { stop: function () { document.removeEventListener('click', hold, true); return taps; } };
    })();`;
}
