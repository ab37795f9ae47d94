// Plain-text output helpers for the operator CLI.
import { TOKEN_SCALE } from '@shared/constants';

/** Columns padded to their widest cell, with a header line. */
export function table(headers: string[], rows: string[][]): string[] {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (c ?? '').padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

/** PXT millionths as a decimal with at most 6 places, without float rounding. */
export function formatToken(millionths: number): string {
  const sign = millionths < 0 ? '-' : '';
  const abs = Math.abs(millionths);
  const whole = Math.floor(abs / TOKEN_SCALE);
  const frac = String(abs % TOKEN_SCALE)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return `${sign}${whole}${frac ? `.${frac}` : ''}`;
}
