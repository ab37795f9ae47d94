// One word per thing in every Russian text a player reads (issue 24: «ты» in the footer, «квесты»
// next to «задания», «опыт» next to «XP»). The glossary table in public/locales/README.md is the
// rule: its last column lists the variants that must not appear, and this test reads it from there.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { breaches, glossary } from '../helpers/glossary-rules';

const ROOT = resolve(import.meta.dirname, '../..');

/** Every file whose Russian a player reads: translations, blog, legal pages, server and shared code. */
function russianSources(): { file: string; text: string }[] {
  const under = (dir: string, keep: (f: string) => boolean) =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => keep(f) && !f.includes('node_modules'))
      .map((f) => join(dir, f));
  const code = (f: string) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f);
  return [
    ...under('public/locales/ru', (f) => f.endsWith('.json')),
    ...under('content/blog/ru', (f) => f.endsWith('.md')),
    ...under('src/features/legal/content/ru', (f) => f.endsWith('.md')),
    ...under('server', code),
    ...under('shared', code),
    ...under('src', code),
  ].map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }));
}

describe('the Russian glossary', () => {
  const rows = glossary();

  it('is a table in public/locales/README.md with the decisions of issue 24', () => {
    const terms = rows.map((r) => r.term);
    for (const term of ['register', 'quest', 'XP', 'boost / 2x boost', 'Gems', 'Auto Miner'])
      expect(terms).toContain(term);
    expect(rows.find((r) => r.term === 'quest')).toMatchObject({ forbidden: ['квест*'] });
    expect(rows.find((r) => r.term === 'quest')?.russian).toContain('задание');
    expect(rows.find((r) => r.term === 'XP')?.forbidden).toContain('опыт*');
    expect(rows.find((r) => r.term === 'register')?.forbidden).toEqual(
      expect.arrayContaining(['ты', 'твой*', 'майни']),
    );
  });

  it.each(rows.filter((r) => r.forbidden.length > 0).map((r) => [r.term, r] as const))(
    '%s: no forbidden variant in any Russian text',
    (_term, row) => {
      const found = russianSources().flatMap(({ file, text }) =>
        breaches(text, row.forbidden).map((w) => `${file}: ${w}`),
      );
      expect(found).toEqual([]);
    },
  );

  it('the word check itself: whole words, `*` for any ending', () => {
    expect(breaches('Майни PXT, проходи квесты', ['майни', 'квест*'])).toEqual(['майни', 'квесты']);
    expect(breaches('Слишком много попыток; майнинг', ['опыт*', 'майни'])).toEqual([]);
    expect(breaches('Кошелёк и кошелек', ['кошелек'])).toEqual(['кошелек']);
  });
});
