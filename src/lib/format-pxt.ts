// The one way PXT and Gems amounts are written on screen (issue 16): in the player's language, PXT
// always with the token's 6 decimals (so 0 and 0.149289 line up and a live counter does not jump),
// and truncated, never rounded up: the screen must not promise 0.016667 when 0.016666 is paid.
import { FALLBACK_LANGUAGE } from '@shared/constants';
import { i18n } from './i18n';
import { formatDecimal } from './number-format';

/** The token's precision (decisions §3): the server pays and stores PXT to 6 decimals. */
export const PXT_DECIMALS = 6;

/** `value` cut (toward zero) to `decimals` places, immune to binary noise such as 0.29 × 10⁶ = 289999.99…. */
export function truncateTo(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  const scaled = Number((Math.abs(value) * scale).toPrecision(15));
  return (Math.sign(value) * Math.trunc(scaled)) / scale || 0;
}

/** A PXT amount, e.g. '0.016666' / '1 234,500000'. */
export function formatPxt(value: number, language: string): string {
  return formatDecimal(truncateTo(value, PXT_DECIMALS), language, PXT_DECIMALS, PXT_DECIMALS);
}

/** A whole number of Gems (or coins), grouped the way the language groups thousands. */
export function formatGems(value: number, language: string): string {
  return formatDecimal(Math.trunc(value), language, 0, 0);
}

// Gems in the texts (`{{count, number}}`) are written the same way once a page that shows amounts has
// loaded this module, not by a new Intl.NumberFormat: a page's first one costs a 30–80 ms task
// (lib/number-format.ts). Elsewhere i18next's own, Intl, writes the same, as it does here for a text
// that asks for a style (percent, currency) or a notation; the landing's one price, hydrated at a
// visitor's first tap, takes no number format at all (tests/unit/landing-price.test.ts).
i18n.services.formatter?.add('number', (value: unknown, lng: string | undefined, options: Intl.NumberFormatOptions) =>
  options.style || options.notation
    ? new Intl.NumberFormat(lng, options).format(Number(value))
    : formatDecimal(
        Number(value),
        lng ?? FALLBACK_LANGUAGE,
        options.minimumFractionDigits ?? 0,
        // Intl's default.
        options.maximumFractionDigits ?? 3,
      ),
);

/** A USDT amount given in the token's 6-decimal base units (decisions §8), shown to the cent, e.g. '4.99'. */
export function formatUsdt(baseUnits: string | undefined, language: string): string {
  if (!baseUnits) return '';
  return formatDecimal(Number(baseUnits) / 1e6, language, 2, 6);
}
