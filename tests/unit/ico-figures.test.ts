import { describe, expect, it } from 'vitest';
import { soldPercent } from '@/features/ico/lib/ico-figures';

describe('share of the token sale sold', () => {
  it('is the floored percent with two decimals', () => {
    expect(soldPercent(0, 100_000_000)).toBe(0);
    expect(soldPercent(25_000_000, 100_000_000)).toBe(25);
    expect(soldPercent(1, 3)).toBe(33.33);
    expect(soldPercent(2, 3)).toBe(66.66);
    expect(soldPercent(99_999_999, 100_000_000)).toBe(99.99);
  });

  it('stays within 0 … 100 on odd input', () => {
    expect(soldPercent(200, 100)).toBe(100);
    expect(soldPercent(100, 100)).toBe(100);
    expect(soldPercent(-5, 100)).toBe(0);
    expect(soldPercent(5, 0)).toBe(0);
    expect(soldPercent(Number.NaN, 100)).toBe(0);
  });
});
