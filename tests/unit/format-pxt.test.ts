import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatGems, formatPxt, truncateTo } from '@/lib/format-pxt';

describe('formatPxt', () => {
  it('never rounds up what will be paid: a session of 1/60 PXT shows 0.016666', () => {
    expect(formatPxt(1 / 60, 'en')).toBe('0.016666');
    expect(formatPxt(0.0166666666, 'ru')).toBe('0,016666');
    expect(formatPxt(0.9999999, 'en')).toBe('0.999999');
  });
  it('always shows the six decimals, zero included', () => {
    expect(formatPxt(0, 'en')).toBe('0.000000');
    expect(formatPxt(12.5, 'en')).toBe('12.500000');
    expect(formatPxt(0.149289, 'en')).toBe('0.149289');
  });
  it('is not fooled by binary fractions', () => {
    expect(formatPxt(0.29, 'en')).toBe('0.290000');
    expect(formatPxt(1.005, 'en')).toBe('1.005000');
    expect(truncateTo(0.1 + 0.2, 6)).toBe(0.3);
    expect(truncateTo(-1.2345678, 6)).toBe(-1.234567);
  });
  it('speaks the player’s language', () => {
    expect(formatPxt(1234.5, 'ru')).toMatch(/^1\s234,500000$/);
    expect(formatPxt(1234.5, 'en')).toBe('1,234.500000');
    expect(formatGems(1500, 'ru')).toMatch(/^1\s500$/);
    expect(formatGems(35, 'en')).toBe('35');
  });
});

describe('one PXT formatter', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) =>
      statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)],
    );
  it('no page formats numbers with toFixed or its own six-decimal NumberFormat', () => {
    const offenders = files(join(import.meta.dirname, '../../src'))
      .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('format-pxt.ts'))
      .filter((f) => /\.toFixed\(|maximumFractionDigits:\s*6|function formatPxt/.test(readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
