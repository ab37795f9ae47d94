// i18next set-up: translations are JSON files served at /locales/{lng}/{ns}.json (public/locales),
// fetched by the tiny backend below. Language: the saved choice (localStorage `i18nextLng`), else
// the browser's, else English; the choice is saved back. Every visible string goes through t().
import i18next, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { FALLBACK_LANGUAGE, LANGUAGES, STORAGE_KEYS, type Language } from '@shared/constants';
import { detectLanguage as detectOneLanguage } from './language-detect';

/** Namespaces shipped in public/locales/<lng>/. Add a file to both languages and list it here. */
export const NAMESPACES = [
  'common',
  'errors',
  'auth',
  'landing',
  'tasks',
  'referrals',
  'profile',
  'blog',
  'arcade',
  'ico',
  'mining',
  'pwa',
] as const;
export type Namespace = (typeof NAMESPACES)[number];

const isLanguage = (v: unknown): v is Language => typeof v === 'string' && (LANGUAGES as readonly string[]).includes(v);

/** The stored choice, then the browser's languages, then English (lib/language-detect.ts, shared with index.html). */
export function detectLanguage(saved: string | null, browser: readonly string[]): Language {
  const lng = detectOneLanguage(saved, browser, LANGUAGES);
  return isLanguage(lng) ? lng : FALLBACK_LANGUAGE;
}

function savedLanguage(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEYS.language);
  } catch {
    return null;
  }
}

export const fetchBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    fetch(`/locales/${language}/${namespace}.json`, { credentials: 'same-origin' })
      .then((r) => {
        if (!r.ok) throw new Error(`/locales/${language}/${namespace}.json: ${r.status}`);
        return r.json();
      })
      .then(
        (data) => callback(null, data),
        (err: Error) => callback(err, false),
      );
  },
};

export function currentLanguage(): Language {
  return isLanguage(i18next.resolvedLanguage) ? i18next.resolvedLanguage : FALLBACK_LANGUAGE;
}

i18next.on('languageChanged', (lng) => {
  try {
    if (isLanguage(lng)) localStorage.setItem(STORAGE_KEYS.language, lng);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
});

export const i18nReady = i18next
  .use(fetchBackend)
  .use(initReactI18next)
  .init({
    lng: detectLanguage(
      savedLanguage(),
      typeof window === 'undefined' ? [] : (window.navigator.languages ?? [window.navigator.language]),
    ),
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    load: 'languageOnly',
    ns: ['common', 'errors'],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    react: { useSuspense: true },
    returnNull: false,
    showSupportNotice: false,
  });

export { i18next as i18n };
