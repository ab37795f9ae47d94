import { describe, expect, it } from 'vitest';
import { isoTime, isoTimeOrNull } from '../../server/lib/iso-time';

const viaDate = (ms: number) => new Date(ms).toISOString();

describe('isoTime writes what toISOString writes', () => {
  it('at the edges of days, months, leap years, centuries and of its own range', () => {
    const at = (iso: string) => Date.parse(iso);
    const times = [
      0,
      1,
      999,
      at('1970-12-31T23:59:59.999Z'),
      at('1972-02-29T00:00:00.000Z'),
      at('1972-03-01T00:00:00.000Z'),
      at('1999-12-31T23:59:59.999Z'),
      at('2000-02-29T12:34:56.789Z'),
      at('2000-03-01T00:00:00.000Z'),
      at('2026-11-28T09:05:03.007Z'),
      at('2100-02-28T23:59:59.999Z'),
      at('2100-03-01T00:00:00.000Z'),
      at('2400-02-29T00:00:00.000Z'),
      at('9999-12-31T23:59:59.999Z'),
    ];
    for (const ms of times) expect(isoTime(ms), String(ms)).toBe(viaDate(ms));
  });

  it('for 300,000 random times from 1970 to 9999, and a day across New Year every 997 ms', () => {
    let seed = 25;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const wrong: number[] = [];
    for (let i = 0; i < 300_000; i++) {
      const ms = Math.floor(random() * 253_402_300_800_000);
      if (isoTime(ms) !== viaDate(ms)) wrong.push(ms);
    }
    const newYear = Date.parse('2027-01-01T00:00:00.000Z');
    for (let ms = newYear - 43_200_000; ms < newYear + 43_200_000; ms += 997) {
      if (isoTime(ms) !== viaDate(ms)) wrong.push(ms);
    }
    expect(wrong).toEqual([]);
  });

  it('outside its range, and for a fraction or no number, as Date does (a RangeError for NaN)', () => {
    for (const ms of [-1, -86_400_001, 253_402_300_800_000, 8.64e15, 1.5, 1_700_000_000_000.25])
      expect(isoTime(ms), String(ms)).toBe(viaDate(ms));
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
    expect(() => isoTime(8.64e15 + 1)).toThrow(RangeError);
  });

  it("takes PostgreSQL's bigint as a string as the number it holds", () => {
    expect(isoTime('1764331200123')).toBe(viaDate(1_764_331_200_123));
    expect(isoTimeOrNull('0')).toBe('1970-01-01T00:00:00.000Z');
  });

  it('null stays null', () => {
    expect(isoTimeOrNull(null)).toBeNull();
    expect(isoTimeOrNull(0)).toBe('1970-01-01T00:00:00.000Z');
  });
});
