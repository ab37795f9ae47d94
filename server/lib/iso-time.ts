// Times in the API's answers are ISO 8601 strings (`2026-11-28T12:00:00.000Z`), as
// Date.prototype.toISOString writes them. V8 writes those through snprintf, about 0.8 µs each on
// the 2-core machine, and a page of 20 mining sessions writes 60 of them: a sixth of the page's
// CPU (issue 25). Written here with integer arithmetic, the same string costs about a quarter of
// that. Times outside years 1970–9999, fractions of a millisecond and non-numbers keep V8's way,
// so the result (or the RangeError) is always toISOString's. `tests/unit/iso-time.test.ts` compares them.

const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00.000Z: from here on toISOString writes a six-digit year with a sign. */
const YEAR_10000_MS = 253_402_300_800_000;

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const three = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/** `new Date(Number(time)).toISOString()`: a column's value may be PostgreSQL's bigint as a string. */
export function isoTime(time: number | string): string {
  const ms = Number(time);
  if (!(ms >= 0 && ms < YEAR_10000_MS) || !Number.isInteger(ms)) return new Date(ms).toISOString();
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  // The civil date of a day number (Howard Hinnant's days_from_civil, inverted): years of 400 years'
  // eras, counted from 0000-03-01 so the leap day is the last day of a year.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  return `${year}-${two(month)}-${two(day)}T${two(hours)}:${two(minutes)}:${two(seconds)}.${three(rest - seconds * 1000)}Z`;
}

/** `isoTime`, or null for no time. */
export const isoTimeOrNull = (time: number | string | null): string | null => (time === null ? null : isoTime(time));
