// Changing the interface language (spec §4): the choice is saved (i18n.ts) and the page reloads so
// every server-provided text follows, unless the last reload was under 2 s ago. The scroll position
// is saved before the reload and restored after it. The install manifest follows the language.
import { LANGUAGE_RELOAD_GUARD_MS, type Language } from '@shared/constants';
import { i18n } from './i18n';

const LAST_RELOAD_KEY = 'pxt.languageReloadAt';
const SCROLL_KEY = 'pxt.languageReloadScroll';

/** Pure rule: reload unless the previous language reload happened less than 2 s ago. */
export const shouldReload = (lastReloadAt: number | null, now: number) =>
  lastReloadAt === null || now - lastReloadAt >= LANGUAGE_RELOAD_GUARD_MS;

export async function switchLanguage(
  lng: Language,
  reload: () => void = () => window.location.reload(),
): Promise<void> {
  await i18n.changeLanguage(lng);
  const last = Number(sessionStorage.getItem(LAST_RELOAD_KEY)) || null;
  const now = Date.now();
  if (!shouldReload(last, now)) return;
  sessionStorage.setItem(LAST_RELOAD_KEY, String(now));
  sessionStorage.setItem(SCROLL_KEY, String(Math.round(window.scrollY)));
  reload();
}

/** After a language reload: scroll back to where the player was (once the page is tall enough). */
export function restoreScrollAfterLanguageReload(): void {
  const saved = sessionStorage.getItem(SCROLL_KEY);
  if (saved === null) return;
  sessionStorage.removeItem(SCROLL_KEY);
  const y = Number(saved);
  if (!Number.isFinite(y) || y <= 0) return;
  // The page grows as its lazy parts arrive: keep trying for a few seconds until it is tall enough.
  const until = Date.now() + 5000;
  const attempt = () => {
    window.scrollTo(0, y);
    if (Math.abs(window.scrollY - y) > 2 && Date.now() < until) setTimeout(attempt, 100);
  };
  requestAnimationFrame(attempt);
}

/** The install manifest of a language: Russian players install with Russian texts (sw/pwa-options.ts). */
export const manifestHref = (lng: string | undefined) =>
  lng === 'ru' ? '/manifest.ru.webmanifest' : '/manifest.webmanifest';

/** Points <link rel=manifest> at the manifest of `lng`; Chromium re-reads it when the href changes. */
export function pointManifestAt(lng: string | undefined, doc: Document = document): void {
  const link = doc.querySelector('link[rel="manifest"]');
  const href = manifestHref(lng);
  if (link && link.getAttribute('href') !== href) link.setAttribute('href', href);
}

if (typeof document !== 'undefined') {
  pointManifestAt(i18n.resolvedLanguage ?? i18n.language);
  // The build's prerender (scripts/vite-plugin-prerender.ts) lends the module a jsdom document only
  // while it renders; i18next can announce a language after it took the document back.
  i18n.on('languageChanged', (lng) => {
    if (typeof document !== 'undefined') pointManifestAt(lng);
  });
}
