import { describe, expect, it } from 'vitest';
import { NAMESPACES } from '@/lib/i18n';
import { keys, load, namespaces } from './locale-helpers';

describe('translations', () => {
  it('ship the same namespaces in en and ru, and every namespace the app declares', () => {
    expect(namespaces('ru')).toEqual(namespaces('en'));
    for (const ns of NAMESPACES) expect(namespaces('en')).toContain(ns);
  });

  it.each(namespaces('en'))('%s: en and ru have exactly the same keys', (ns) => {
    expect(keys(load('ru', ns)).sort()).toEqual(keys(load('en', ns)).sort());
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
