// The depth check that runs before any JSON body is parsed (server/lib/json-depth.ts).
import { describe, expect, it } from 'vitest';
import { jsonDeeperThan } from '../../server/lib/json-depth';

describe('jsonDeeperThan', () => {
  it('counts arrays and objects inside one another', () => {
    expect(jsonDeeperThan('[[[]]]', 3)).toBe(false);
    expect(jsonDeeperThan('[[[[]]]]', 3)).toBe(true);
    expect(jsonDeeperThan('{"a":{"b":[1]}}', 3)).toBe(false);
    expect(jsonDeeperThan('{"a":{"b":[{}]}}', 3)).toBe(true);
    // Siblings do not add up.
    expect(jsonDeeperThan('[[],[],[[]]]', 3)).toBe(false);
  });

  it('skips brackets inside strings, escaped quotes included', () => {
    expect(jsonDeeperThan(`{"a":"${'['.repeat(100)}"}`, 2)).toBe(false);
    expect(jsonDeeperThan(`{"a":"\\"${'{'.repeat(100)}\\\\"}`, 2)).toBe(false);
    expect(jsonDeeperThan(`["\\\\",[[[]]]]`, 3)).toBe(true);
  });

  it('reads 32 000 levels without recursion', () => {
    expect(jsonDeeperThan('['.repeat(32_000) + ']'.repeat(32_000))).toBe(true);
  });
});
