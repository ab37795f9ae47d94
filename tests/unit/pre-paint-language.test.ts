// One language detection (issue 15): the pre-paint script of index.html runs the very function
// i18next uses (src/lib/language-detect.ts), so for browser languages `de, ru` both say Russian
// (the old inline script looked at the first language only and preloaded English), and a stored
// choice beats the browser in both.
// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '@shared/constants';
import { detectLanguage } from '@/lib/i18n';
import { detectLanguage as detectOne } from '@/lib/language-detect';
import { TOKEN_STORAGE_KEYS } from '@/lib/session';
import { languageScript, PRE_PAINT_KEYS } from '../../scripts/pre-paint-scripts';

function runPrePaint(languages: string[], stored: string | null): { lang: string; preloads: string[] } {
  Object.defineProperty(navigator, 'languages', { value: languages, configurable: true });
  if (stored) localStorage.setItem(STORAGE_KEYS.language, stored);
  document.head.querySelectorAll('link[rel=preload]').forEach((l) => l.remove());
  new Function(languageScript())();
  return {
    lang: document.documentElement.lang,
    preloads: [...document.head.querySelectorAll<HTMLLinkElement>('link[rel=preload]')].map(
      (l) => new URL(l.href).pathname,
    ),
  };
}

afterEach(() => localStorage.clear());

describe('the one language detection', () => {
  it('picks the first supported browser language, after a stored choice', () => {
    expect(detectOne(null, ['de', 'ru'])).toBe('ru');
    expect(detectOne(null, ['de-AT', 'ru-RU', 'en'])).toBe('ru');
    expect(detectOne('en', ['de', 'ru'])).toBe('en');
    expect(detectOne('xx', ['fr'])).toBe('en');
    expect(detectLanguage(null, ['de', 'ru'])).toBe('ru');
  });

  it('the pre-paint script agrees with i18next: `de, ru` preloads Russian', () => {
    const { lang, preloads } = runPrePaint(['de', 'ru'], null);
    expect(lang).toBe(detectLanguage(null, ['de', 'ru']));
    expect(lang).toBe('ru');
    expect(preloads).toContain('/locales/ru/common.json');
    expect(preloads.some((p) => p.startsWith('/locales/en/'))).toBe(false);
  });

  it('the stored choice beats the browser in the pre-paint script too', () => {
    expect(runPrePaint(['ru-RU', 'ru'], 'en').lang).toBe('en');
    expect(runPrePaint(['en-US'], 'ru').lang).toBe('ru');
  });

  it('reads the keys the app writes', () => {
    expect(PRE_PAINT_KEYS.language).toBe(STORAGE_KEYS.language);
    expect([...PRE_PAINT_KEYS.tokens].sort()).toEqual(Object.values(TOKEN_STORAGE_KEYS).sort());
  });
});
