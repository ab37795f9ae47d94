// The Russian glossary as tests read it: the table in public/locales/README.md (| Term | English |
// Русский | Where | Not in Russian |) and the check of a text against its forbidden variants.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const README = resolve(import.meta.dirname, '../../public/locales/README.md');

export interface GlossaryRow {
  term: string;
  russian: string;
  /** Words that must not appear in a Russian text; `квест*` is any word starting «квест». */
  forbidden: string[];
}

export function glossary(): GlossaryRow[] {
  const readme = readFileSync(README, 'utf8');
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

/** The words of a text that break the rule (whole words, case-insensitive). */
export function breaches(text: string, forbidden: string[]): string[] {
  const words = (text.match(/[А-Яа-яЁё]+/g) ?? []).map((w) => w.toLowerCase());
  return words.filter((w) => forbidden.some((f) => (f.endsWith('*') ? w.startsWith(f.slice(0, -1)) : w === f)));
}
