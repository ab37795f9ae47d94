// Numbers written in the app's languages without Intl.NumberFormat. The first NumberFormat a page
// makes loads ICU's number data: one task of 30–80 ms on the 2-core machine, four times that in
// Lighthouse's mobile TBT, and the miner's first render paid it (issue 25). Written here the way
// ICU writes them: the number's shortest decimal form, rounded half away from zero, grouped by
// threes with the language's CLDR symbols (tests/unit/number-format.test.ts checks every case
// against Intl.NumberFormat). A language without symbols here still goes to Intl.

/** CLDR's group and decimal separators of the app's languages (shared/constants.ts LANGUAGES). */
const SYMBOLS: Record<string, { group: string; decimal: string } | undefined> = {
  en: { group: ',', decimal: '.' },
  ru: { group: '\u00a0', decimal: ',' },
};

const intlFormats = new Map<string, Intl.NumberFormat>();

/** The integer and fraction digits of a finite, non-negative number's shortest decimal form. */
function decimalDigits(abs: number): { whole: string; fraction: string } {
  const [mantissa, exponent = '0'] = String(abs).split('e');
  const [whole, fraction = ''] = mantissa.split('.');
  let digits = whole + fraction;
  let point = whole.length + Number(exponent);
  if (point <= 0) {
    digits = '0'.repeat(1 - point) + digits;
    point = 1;
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);
  return { whole: digits.slice(0, point), fraction: digits.slice(point) };
}

/** A string of decimal digits plus one ('0999' → '1000', '99' → '100'). */
function incremented(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === '9') i--;
  if (i < 0) return `1${'0'.repeat(digits.length)}`;
  return digits.slice(0, i) + String(Number(digits[i]) + 1) + '0'.repeat(digits.length - i - 1);
}

/**
 * `value` with at least `minFraction` and at most `maxFraction` decimals, e.g. 1234.5 with 2..6 →
 * '1,234.50' / '1 234,50'. Negative zero is written 0.
 */
export function formatDecimal(value: number, language: string, minFraction: number, maxFraction: number): string {
  const symbols = SYMBOLS[language];
  if (!symbols || !Number.isFinite(value)) {
    const key = `${language}|${minFraction}|${maxFraction}`;
    let f = intlFormats.get(key);
    if (!f) {
      f = new Intl.NumberFormat(language, { minimumFractionDigits: minFraction, maximumFractionDigits: maxFraction });
      intlFormats.set(key, f);
    }
    return f.format(value);
  }
  const { whole, fraction } = decimalDigits(Math.abs(value));
  let kept = whole + fraction.slice(0, maxFraction).padEnd(maxFraction, '0');
  if (fraction.length > maxFraction && fraction[maxFraction] >= '5') kept = incremented(kept);
  const point = kept.length - maxFraction;
  let end = kept.length;
  while (end > point + minFraction && kept[end - 1] === '0') end--;
  const integer = kept.slice(0, point).replace(/\B(?=(\d{3})+$)/g, symbols.group);
  const decimals = kept.slice(point, end);
  const sign = value < 0 && /[1-9]/.test(kept) ? '-' : '';
  return `${sign}${integer}${decimals ? symbols.decimal + decimals : ''}`;
}
