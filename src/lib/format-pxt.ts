// The one way PXT and Gems amounts are written on screen (issue 16): in the player's language, PXT
// always with the token's 6 decimals (so 0 and 0.149289 line up and a live counter does not jump),
// and truncated, never rounded up: the screen must not promise 0.016667 when 0.016666 is paid.

/** The token's precision (decisions §3): the server pays and stores PXT to 6 decimals. */
export const PXT_DECIMALS = 6;

const pxtFormats = new Map<string, Intl.NumberFormat>();
const gemFormats = new Map<string, Intl.NumberFormat>();

/** `value` cut (toward zero) to `decimals` places, immune to binary noise such as 0.29 × 10⁶ = 289999.99…. */
export function truncateTo(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  const scaled = Number((Math.abs(value) * scale).toPrecision(15));
  return (Math.sign(value) * Math.trunc(scaled)) / scale || 0;
}

/** A PXT amount, e.g. '0.016666' / '1 234,500000'. */
export function formatPxt(value: number, language: string): string {
  let f = pxtFormats.get(language);
  if (!f)
    pxtFormats.set(
      language,
      (f = new Intl.NumberFormat(language, {
        minimumFractionDigits: PXT_DECIMALS,
        maximumFractionDigits: PXT_DECIMALS,
      })),
    );
  return f.format(truncateTo(value, PXT_DECIMALS));
}

/** A whole number of Gems (or coins), grouped the way the language groups thousands. */
export function formatGems(value: number, language: string): string {
  let f = gemFormats.get(language);
  if (!f) gemFormats.set(language, (f = new Intl.NumberFormat(language, { maximumFractionDigits: 0 })));
  return f.format(Math.trunc(value));
}

const usdtFormats = new Map<string, Intl.NumberFormat>();

/** A USDT amount given in the token's 6-decimal base units (decisions §8), shown to the cent, e.g. '4.99'. */
export function formatUsdt(baseUnits: string | undefined, language: string): string {
  if (!baseUnits) return '';
  let f = usdtFormats.get(language);
  if (!f)
    usdtFormats.set(
      language,
      (f = new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 6 })),
    );
  return f.format(Number(baseUnits) / 1e6);
}
