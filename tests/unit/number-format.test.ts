import { describe, expect, it, vi } from 'vitest';
import { LANGUAGES } from '@shared/constants';
import { formatDecimal } from '@/lib/number-format';

/** A seeded generator, so a failing value is the same on every run. */
function randomFrom(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return s / 2 ** 32;
  };
}

const random = randomFrom(25);
const edges = [
  0,
  1,
  5,
  9.5,
  0.5,
  0.05,
  0.00005,
  0.000005,
  0.0000005,
  1e-7,
  1.5e-10,
  999.99995,
  999_999.9999995,
  1234.5,
  1_234_567.891,
  0.29,
  1.005,
  1.00005,
  1.23445,
  2.675,
  99_999_999.5,
  123_456_789_012,
  1e15,
  1e21,
  2 ** 53,
  Number.MAX_SAFE_INTEGER,
  0.1 + 0.2,
  1 / 3,
  2 / 3,
  1 / 60,
];
const randoms = Array.from({ length: 3000 }, (_, i) => {
  const magnitude = 10 ** Math.floor(random() * 16 - 8);
  const value = random() * magnitude;
  // Every third value written with few decimals, as amounts are (12.5, 0.149289): rounding ties.
  return i % 3 === 0 ? Number(value.toFixed(Math.floor(random() * 8))) : value;
});
const values = [...edges, ...randoms].flatMap((v) => [v, -v]).filter((v) => !Object.is(v, -0));
const fractions = [
  [0, 0],
  [0, 4],
  [2, 6],
  [6, 6],
] as const;

describe('formatDecimal: what Intl.NumberFormat writes, without loading it', () => {
  for (const language of LANGUAGES) {
    for (const [min, max] of fractions) {
      it(`${language}, ${min}..${max} decimals, ${values.length} values`, () => {
        const intl = new Intl.NumberFormat(language, { minimumFractionDigits: min, maximumFractionDigits: max });
        const differ = values
          .map((v) => ({ v, ours: formatDecimal(v, language, min, max), intl: intl.format(v) }))
          // Intl writes a negative that rounds to zero as '-0'; the app writes 0 (tested below).
          .filter((x) => x.ours !== x.intl && !(x.intl === `-${x.ours}` && !/[1-9]/.test(x.ours)));
        expect(differ.slice(0, 5)).toEqual([]);
      });
    }
  }

  it('writes negative zero, and a negative amount that rounds to zero, as 0', () => {
    expect(formatDecimal(-0, 'en', 0, 0)).toBe('0');
    expect(formatDecimal(-0.00001, 'ru', 0, 4)).toBe('0');
    expect(formatDecimal(-0.4, 'en', 0, 0)).toBe('0');
  });

  it('groups by threes with the language’s separators', () => {
    expect(formatDecimal(1_234_567.5, 'en', 2, 2)).toBe('1,234,567.50');
    expect(formatDecimal(1_234_567.5, 'ru', 2, 2)).toBe('1\u00a0234\u00a0567,50');
    expect(formatDecimal(999.9999, 'en', 0, 2)).toBe('1,000');
  });

  it('leaves a language it has no symbols for, and what is not a number, to Intl', () => {
    expect(formatDecimal(1234.5, 'de', 1, 1)).toBe(
      new Intl.NumberFormat('de', { minimumFractionDigits: 1 }).format(1234.5),
    );
    expect(formatDecimal(Number.NaN, 'en', 0, 0)).toBe('NaN');
    expect(formatDecimal(Number.POSITIVE_INFINITY, 'ru', 0, 0)).toBe('∞');
  });
});

describe('the miner’s numbers make no Intl.NumberFormat (its first one is a 30–80 ms task)', () => {
  it('PXT, Gems, rates, USDT and the texts’ {{count, number}}', async () => {
    const { formatGems, formatPxt, formatUsdt } = await import('@/lib/format-pxt');
    const { formatRate } = await import('@/features/mining/lib/format');
    const { i18n, i18nReady } = await import('@/lib/i18n');
    await i18nReady.catch(() => undefined);
    i18n.addResourceBundle('en', 'common', { units: { gems_other: '{{count, number}} Gems' } }, true, true);
    i18n.addResourceBundle('ru', 'common', { units: { gems_many: '{{count, number}} гемов' } }, true, true);
    const made = vi.spyOn(Intl, 'NumberFormat');
    try {
      const written = [
        formatPxt(1234.5678919, 'en'),
        formatGems(1500, 'ru'),
        formatRate(1.15, 'en'),
        formatUsdt('4990000', 'ru'),
        i18n.getFixedT('en', 'common')('units.gems', { count: 1500 }),
        i18n.getFixedT('ru', 'common')('units.gems', { count: 1500 }),
      ];
      expect(written).toEqual(['1,234.567891', '1\u00a0500', '1.15', '4,99', '1,500 Gems', '1\u00a0500 гемов']);
      expect(made).not.toHaveBeenCalled();
      // A style the hand-written numbers do not know still goes to Intl.
      i18n.addResourceBundle('en', 'common', { share: '{{value, number(style: percent)}}' }, true, true);
      expect(i18n.getFixedT('en', 'common')('share', { value: 0.25 })).toBe('25%');
    } finally {
      made.mockRestore();
    }
  });
});
