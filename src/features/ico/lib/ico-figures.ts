// Pure figures of the token-sale page: the share of the offered tokens sold so far.

/** Percent of `total` that `sold` is, clamped to 0 … 100, with at most two decimals (floored, so a sale never shows 100 % early). */
export function soldPercent(sold: number, total: number): number {
  if (!Number.isFinite(sold) || !Number.isFinite(total) || total <= 0 || sold <= 0) return 0;
  if (sold >= total) return 100;
  return Math.floor((sold / total) * 10_000) / 100;
}
