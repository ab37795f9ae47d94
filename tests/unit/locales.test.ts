import { describe, expect, it } from 'vitest';
import { NAMESPACES } from '@/lib/i18n';
import { keys, load, namespaces } from './locale-helpers';

describe('translations', () => {
  it('ship the same namespaces in en and ru, and every namespace the app declares', () => {
    expect(namespaces('ru')).toEqual(namespaces('en'));
    for (const ns of NAMESPACES) expect(namespaces('en')).toContain(ns);
  });

  // Plural keys (`x_one`, `x_few`…) differ by language: each language has the forms its
  // Intl.PluralRules asks for, and the keys are the same once those suffixes are taken off.
  const PLURAL = /_(zero|one|two|few|many|other)$/;
  const baseKeys = (lng: string, ns: string) =>
    [...new Set(keys(load(lng, ns)).map((k) => k.replace(PLURAL, '')))].sort();

  it.each(namespaces('en'))('%s: en and ru have exactly the same keys (plural forms aside)', (ns) => {
    expect(baseKeys('ru', ns)).toEqual(baseKeys('en', ns));
  });

  it.each(namespaces('en'))('%s: every counted key has each plural form of its language', (ns) => {
    for (const lng of ['en', 'ru']) {
      const all = keys(load(lng, ns));
      const forms = new Intl.PluralRules(lng).resolvedOptions().pluralCategories;
      const counted = [...new Set(all.filter((k) => PLURAL.test(k)).map((k) => k.replace(PLURAL, '')))];
      for (const base of counted) {
        expect(all.filter((k) => k.replace(PLURAL, '') === base).sort(), `${lng} ${ns}:${base}`).toEqual(
          forms.map((f) => `${base}_${f}`).sort(),
        );
        expect(all, `${lng} ${ns}:${base} is also a plain key`).not.toContain(base);
      }
    }
  });

  it.each(namespaces('en'))('%s: no empty texts and the same {{placeholders}} in both languages', (ns) => {
    const flat = (lng: string) => {
      const out: Record<string, string> = {};
      const walk = (o: Record<string, unknown>, p: string) => {
        for (const [k, v] of Object.entries(o)) {
          if (typeof v === 'string') out[p + k] = v;
          else walk(v as Record<string, unknown>, `${p}${k}.`);
        }
      };
      walk(load(lng, ns), '');
      return out;
    };
    const enTexts = flat('en');
    const ruTexts = flat('ru');
    for (const [k, v] of Object.entries(enTexts)) {
      expect(v.trim(), `en ${ns}:${k}`).not.toBe('');
      expect(ruTexts[k]?.trim(), `ru ${ns}:${k}`).not.toBe('');
      const vars = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}|<(\w+)>/g)].map((m) => m[1] ?? m[2]).sort();
      expect(vars(ruTexts[k]), `${ns}:${k}`).toEqual(vars(v));
    }
  });
});
