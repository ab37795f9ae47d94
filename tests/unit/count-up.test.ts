// The reward moment's count-up (issue 16): eased from the start to the exact final value, which it
// reaches at the end and never overshoots (a claim never shows more than it paid).
import { describe, expect, it } from 'vitest';
import { countUpValue } from '@/features/mining/state/count-up';

describe('countUpValue', () => {
  it('starts at the start, ends exactly at the target, and only rises on the way', () => {
    expect(countUpValue(0, 0.016666, 0, 1200)).toBe(0);
    expect(countUpValue(0, 0.016666, 1200, 1200)).toBe(0.016666);
    expect(countUpValue(0, 0.016666, 5000, 1200)).toBe(0.016666);
    let last = -1;
    for (let t = 0; t <= 1200; t += 50) {
      const v = countUpValue(0, 0.016666, t, 1200);
      expect(v).toBeGreaterThanOrEqual(last);
      expect(v).toBeLessThanOrEqual(0.016666);
      last = v;
    }
  });

  it('jumps straight to the target without a duration', () => {
    expect(countUpValue(3, 7, 0, 0)).toBe(7);
  });
});
