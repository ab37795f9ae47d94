// Field rules of spec §5, shared so the server refuses exactly what the client's forms refuse.
import { PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from './constants';
import { usernameSkeleton } from './username-skeleton';

/** RFC 5321's longest forward path, less the angle brackets. */
export const EMAIL_MAX = 254;

// Spec §5's loose pattern is "non-space text, an at sign, text, a dot, text". Each part is held
// to characters no mail library reads as syntax (a list separator, a display name, a quoted or
// commented part, a route), so the string can only ever mean one plain mailbox: `a@x.com,b@y.com`
// and `x<c@z.com>@y.com` were mailed as lists before. Control, format and separator characters
// (zero-width spaces, bidi overrides, U+0085, U+2028) are refused too.
const MAILBOX_CHAR = String.raw`[^\s@,;:<>()[\]\\"\p{C}\p{Z}]`;
const DOMAIN_LABEL = String.raw`[^\s@,;:<>()[\]\\"\p{C}\p{Z}.]+`;
export const EMAIL_PATTERN = new RegExp(`^${MAILBOX_CHAR}+@${DOMAIN_LABEL}(?:\\.${DOMAIN_LABEL})+$`, 'u');
export const PASSWORD_PATTERN = new RegExp(`^(?=.*[A-Za-z])(?=.*\\d).{${PASSWORD_MIN},}$`);

/** One plain address (`local@domain.tld`), at most EMAIL_MAX characters; the length is checked first. */
export const isValidEmail = (v: string) => v.length <= EMAIL_MAX && EMAIL_PATTERN.test(v);
export const isValidPassword = (v: string) => PASSWORD_PATTERN.test(v);

// Control (Cc), format (Cf: zero-width, bidi overrides, BOM), line/paragraph separators and every
// space but the plain one: invisible or direction-changing characters let two names look alike.
const USERNAME_FORBIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}]|[^\P{Zs} ]/u;
// UTS #39's restriction (decisions §13): letters of one script, Latin or Cyrillic, with digits and
// `_`. Everything else is refused, which takes in every invisible or combining mark without a list:
// U+034F, the Hangul fillers (U+115F), the Braille blank U+2800, overlays such as U+0336.
const LATIN_NAME = /^(?:(?=\p{L})\p{Script=Latin}|[0-9_])+$/u;
const CYRILLIC_NAME = /^(?:(?=\p{L})\p{Script=Cyrillic}|[0-9_])+$/u;

/** Why a username is refused by its characters, or null: shared by the client's dialogs and the API. */
export function usernameCharsProblem(v: string): 'invalid_characters' | 'not_normalized' | 'mixed_scripts' | null {
  // Runs of spaces show as one on a page, so `a  b` would pass for `a b`.
  if (USERNAME_FORBIDDEN.test(v) || v.includes('  ')) return 'invalid_characters';
  // Full-width `ａｄｍｉｎ`, ligatures, superscripts, combining sequences: NFKC maps them onto
  // other names, so only the form NFKC leaves as it is can be chosen.
  if (v.normalize('NFKC') !== v) return 'not_normalized';
  if (LATIN_NAME.test(v) || CYRILLIC_NAME.test(v)) return null;
  // `аdmin` (a Cyrillic а among Latin letters) reads as `admin`.
  return /^(?:(?=\p{L})[\p{Script=Latin}\p{Script=Cyrillic}]|[0-9_])+$/u.test(v)
    ? 'mixed_scripts'
    : 'invalid_characters';
}

/** Length (spec §5, 5–15) and characters; trimming is the caller's (the forms and the schema trim). */
export const isValidUsername = (v: string) =>
  v.length >= USERNAME_MIN && v.length <= USERNAME_MAX && usernameCharsProblem(v) === null;

/**
 * The form two usernames are compared in, the same on SQLite and PostgreSQL (kept in
 * `users.username_key` under a unique index, computed here rather than by either database's
 * `lower()`): the case-insensitive confusable skeleton of UTS #39 (shared/username-skeleton.ts), so
 * `admin`, `ADMIN`, `аdmin` and `adm1n` have one key and only one of them can exist.
 */
export const usernameKey = (username: string) => usernameSkeleton(username);

/** Wallet display of spec §2: whole when 10 characters or fewer, else 7 … 3. */
export function shortWallet(address: string): string {
  if (address.length <= 10) return address;
  return `${address.slice(0, 7)}...${address.slice(-3)}`;
}
