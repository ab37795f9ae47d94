// The app's own strings for browser tests that run in both languages: read from public/locales so
// a test names buttons the way the player sees them ({{x}} placeholders filled by `fill`). Like
// i18next, a `count` picks the plural form (`key_one`, `key_few`… by Intl.PluralRules) and
// `$t(ns:key, {"count": n})` inside a text is replaced by that text.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const cache = new Map<string, Record<string, unknown>>();

function lookup(lang: string, ns: string, path: string): unknown {
  const file = `${lang}/${ns}`;
  if (!cache.has(file))
    cache.set(
      file,
      JSON.parse(readFileSync(resolve(ROOT, `public/locales/${file}.json`), 'utf8')) as Record<string, unknown>,
    );
  let node: unknown = cache.get(file);
  for (const part of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  return node;
}

export function text(lang: string, key: string, values: Record<string, string | number> = {}): string {
  const [ns, path] = key.includes(':') ? key.split(':', 2) : ['common', key];
  let node = lookup(lang, ns, path);
  if (node === undefined && typeof values.count === 'number')
    node = lookup(lang, ns, `${path}_${new Intl.PluralRules(lang).select(values.count)}`);
  if (typeof node !== 'string') throw new Error(`no string ${lang}:${key}`);
  return (
    node
      // `{{count, number}}`: the number as i18next's built-in formatter writes it (Intl.NumberFormat).
      .replace(/{{\s*(\w+)\s*(,\s*number\s*)?}}/g, (_, k: string, number?: string) =>
        values[k] === undefined
          ? `{{${k}}}`
          : number
            ? new Intl.NumberFormat(lang).format(Number(values[k]))
            : String(values[k]),
      )
      .replace(/\$t\(([^,)]+),\s*(\{[^)]*\})\s*\)/g, (_, nested: string, options: string) =>
        text(lang, nested, { ...values, ...(JSON.parse(options) as Record<string, string | number>) }),
      )
  );
}
