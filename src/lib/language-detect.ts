// The one language detection of the app (spec: the stored choice, then the browser's languages in
// order, then English). i18next (lib/i18n.ts) calls it at start, and the build inlines the very same
// function into index.html's pre-paint script (scripts/vite-plugin-prerender.ts), which picks the
// translations to preload and the prerendered landing's language before anything paints.
// It must stay self-contained (no imports, no outer variables): it is serialised with toString().

/**
 * The interface language: `saved` when it is a supported language, else the first of `browser`
 * (BCP 47 tags, most preferred first) whose primary subtag is supported, else `supported[0]`.
 */
export function detectLanguage(
  saved: string | null,
  browser: readonly string[],
  supported: readonly string[] = ['en', 'ru'],
): string {
  if (saved && supported.indexOf(saved) >= 0) return saved;
  for (let i = 0; i < browser.length; i++) {
    const base = String(browser[i]).split('-')[0].toLowerCase();
    if (supported.indexOf(base) >= 0) return base;
  }
  return supported[0];
}
