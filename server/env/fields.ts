// The kinds of environment variable (env/variables.ts): each turns the raw string (or its absence)
// into a value, or refuses it with a message that, after the variable's name, is the whole story.
import { z } from 'zod';

type Raw = string | undefined;

/** A value parsed by `parse`, which throws an Error to refuse (its message: one line, may start with the name). */
export function custom<T>(parse: (raw: Raw) => T) {
  return z
    .string()
    .optional()
    .transform((raw, ctx): T => {
      try {
        return parse(raw);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    });
}

const refuse = (message: string) => {
  throw new Error(message);
};

/** The raw value: unset and empty stay apart (STATIC_DIR='' means "none"). */
export const raw = () => z.string().optional();

/** Text, or null when unset or empty. */
export const text = () => custom((v): string | null => v || null);

/** Text; unset or empty gives `fallback`. */
export const textOr = (fallback: string) => custom((v): string => v || fallback);

/** An integer ≥ min; unset or empty gives `fallback`. */
export const int = <F extends number | null>(fallback: F, min = 0) =>
  custom((v): number | F => {
    if (v === undefined || v === '') return fallback;
    const n = Number(v);
    return Number.isInteger(n) && n >= min ? n : refuse(`must be an integer ≥ ${min}, got "${v}"`);
  });

/** A number > 0; unset or empty gives `fallback`. */
export const positive = (fallback: number) =>
  custom((v) => {
    if (v === undefined || v === '') return fallback;
    const n = Number(v);
    return Number.isFinite(n) && n > 0 ? n : refuse(`must be a number > 0, got "${v}"`);
  });

/** "on" or "off" (any case); unset or empty gives `fallback`. */
export const onOff = (fallback: boolean) =>
  custom((v) => {
    const s = (v ?? '').trim().toLowerCase();
    if (s === '') return fallback;
    return s === 'on' ? true : s === 'off' ? false : refuse(`must be "on" or "off", got "${v}"`);
  });

/** One of `values`, or null when unset or empty. */
export const oneOf = <T extends string>(values: readonly T[]) =>
  custom((v): T | null => {
    if (!v) return null;
    return values.includes(v as T)
      ? (v as T)
      : refuse(`must be ${values.map((x) => `"${x}"`).join(' or ')}, got "${v}"`);
  });
