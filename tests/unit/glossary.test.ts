// One word per thing in every Russian text a player reads (issue 24: «ты» in the footer, «квесты»
// next to «задания», «опыт» next to «XP»). The glossary table in public/locales/README.md is the
// rule: its last column lists the variants that must not appear, and this test reads it from there.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES_DIR } from './locale-helpers';

const ROOT = resolve(import.meta.dirname, '../..');

interface Row {
  term: string;
  russian: string;
  forbidden: string[];
}

/** The glossary's rows: | Term | English | Русский | Where | Not in Russian |. */
function glossary(): Row[] {
  const readme = readFileSync(join(LOCALES_DIR, 'README.md'), 'utf8');
  const table = readme
    .slice(readme.indexOf('## Glossary'))
    .split('\n')
    .filter((l) => l.startsWith('|'));
  return table.slice(2).map((line) => {
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    return {
      term: cells[0],
      russian: cells[2],
      forbidden: cells[4]
        .split(',')
        .map((w) => w.replace(/\\\*/g, '*').trim().toLowerCase())
        .filter(Boolean),
    };
  });
}

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

/** The glossary's words a text uses against the rule: `квест*` is any word starting «квест». */
function breaches(text: string, forbidden: string[]): string[] {
  const words = (text.match(/[А-Яа-яЁё]+/g) ?? []).map((w) => w.toLowerCase());
  return words.filter((w) => forbidden.some((f) => (f.endsWith('*') ? w.startsWith(f.slice(0, -1)) : w === f)));
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
