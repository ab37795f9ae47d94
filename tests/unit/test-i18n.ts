// An i18next instance with the shipped translation files, for components under test. The first
// namespace is the default one; `languages` loads more than `lng` (a test that switches language).
import { createInstance, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { load } from './locale-helpers';

export async function testI18n(
  lng: string,
  ns: readonly [string, ...string[]],
  languages: readonly string[] = [lng],
): Promise<I18n> {
  const i = createInstance();
  await i.use(initReactI18next).init({
    lng,
    resources: Object.fromEntries(languages.map((l) => [l, Object.fromEntries(ns.map((n) => [n, load(l, n)]))])),
    defaultNS: ns[0],
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
    showSupportNotice: false,
  });
  return i;
}
