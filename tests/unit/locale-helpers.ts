// Reads the shipped translation files (public/locales) for the unit tests.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import i18next, { type i18n, type Resource } from 'i18next';

export const LOCALES_DIR = resolve(import.meta.dirname, '../../public/locales');

export function namespaces(lng: string): string[] {
  return readdirSync(join(LOCALES_DIR, lng))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
}

export function load(lng: string, ns: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(LOCALES_DIR, lng, `${ns}.json`), 'utf8'));
}

/** Flattened keys ('a.b.c') of a translation file. */
export function keys(obj: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? keys(v as Record<string, unknown>, `${prefix}${k}.`)
      : [`${prefix}${k}`],
  );
}

/** The English text of `ns:key` (or a key in the default namespace `common`). */
export function en(fullKey: string, vars: Record<string, string | number> = {}): string {
  const [ns, key] = fullKey.includes(':') ? fullKey.split(':') : ['common', fullKey];
  const value = key
    .split('.')
    .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], load('en', ns));
  if (typeof value !== 'string') throw new Error(`no English text for ${fullKey}`);
  return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name]));
}

/** An i18next of its own with every shipped namespace of en and ru, as the app renders them (no fallback). */
export async function shippedI18n(): Promise<i18n> {
  const resources: Resource = {};
  for (const lng of ['en', 'ru']) resources[lng] = Object.fromEntries(namespaces(lng).map((ns) => [ns, load(lng, ns)]));
  const instance = i18next.createInstance();
  await instance.init({
    resources,
    lng: 'en',
    fallbackLng: false,
    ns: namespaces('en'),
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    showSupportNotice: false,
  });
  return instance;
}
