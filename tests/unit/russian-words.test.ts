// The Russian texts (issue 16): one register («вы»), the glossary's words (public/locales/README.md)
// instead of English product words left in Russian, and messages that start with a capital letter.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seasonNumber } from '@/features/arcade/lib/season-title';
import { keys, load, LOCALES_DIR, namespaces } from './locale-helpers';

/** Latin words a Russian text may keep: names, currencies and units the glossary keeps as they are. */
const ALLOWED_LATIN = new Set([
  'PXT',
  'USDT',
  'Tether',
  'Google',
  'MetaMask',
  'Telegram',
  'Discord',
  'Companion',
  'XP',
  'ICO',
  'QR',
  'Eng',
  'Rus',
  'x',
  'username',
]);

const texts = (lng: string) =>
  namespaces(lng).flatMap((ns) => {
    const data = load(lng, ns);
    return keys(data).map((key) => ({
      where: `${ns}:${key}`,
      text: String(key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], data)),
    }));
  });

/** The words of a text once nested $t(…) texts, interpolations, <tags>, e-mail addresses and links are taken out. */
function latinWords(text: string): string[] {
  const plain = text
    .replace(/\$t\([^)]*\)/g, ' ')
    .replace(/\{\{[^}]*\}\}/g, ' ')
    .replace(/<\/?\w+\s*\/?>/g, ' ')
    .replace(/\S+@\S+\.\S+/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ');
  return (plain.match(/[A-Za-z][A-Za-z0-9]*/g) ?? []).filter((w) => !ALLOWED_LATIN.has(w));
}

describe('Russian texts', () => {
  it('leave no English product word untranslated (Gems → гемы, Auto Miner → автомайнер, …)', () => {
    const left = texts('ru').flatMap(({ where, text }) => latinWords(text).map((w) => `${where}: ${w}`));
    expect(left).toEqual([]);
  });

  it('the word check itself: it flags "Gems" and lets names, interpolations and addresses pass', () => {
    expect(latinWords('За {{price}} Gems в месяц')).toEqual(['Gems']);
    expect(latinWords('Войдите через Google или MetaMask, {{name}}, hello@pxt.games, <terms>Условия</terms>')).toEqual(
      [],
    );
  });

  it('speak to the player as «вы», never «ты»', () => {
    const informal = /(^|[^а-яё])(ты|твой|твоя|твоё|твои|твоих|твоим|твою|твоей|тебя|тебе|тобой)(?=[^а-яё]|$)/i;
    const found = texts('ru')
      .filter(({ text }) => informal.test(text))
      .map(({ where, text }) => `${where}: ${text}`);
    expect(found).toEqual([]);
  });

  it('start validation messages with a capital letter', () => {
    const validation = load('ru', 'auth').validation as Record<string, string>;
    const lower = Object.entries(validation).filter(([, text]) => /^[а-яё]/.test(text));
    expect(lower).toEqual([]);
  });

  it('have a glossary next to the translations', () => {
    const readme = readFileSync(join(LOCALES_DIR, 'README.md'), 'utf8');
    for (const word of ['гемы', 'автомайнер', '«вы»', 'Сезон']) expect(readme).toContain(word);
  });

  it('say the default season title in the player’s language', () => {
    expect(seasonNumber('Season 1')).toBe(1);
    expect(seasonNumber('season 12 ')).toBe(12);
    expect(seasonNumber('Neon Nights')).toBeNull();
    expect(load('ru', 'arcade').numberedTitle).toBe('Сезон {{number}}');
  });
});
