// Dates in the player's interface language with date-fns. Only the two locales the app speaks are
// imported (by file, so the bundle does not pull in every date-fns locale).
import { format, isValid, parseISO, type Locale } from 'date-fns';
import { enUS } from 'date-fns/locale/en-US';
import { ru } from 'date-fns/locale/ru';
import type { Language } from '@shared/constants';

const LOCALES: Record<Language, Locale> = { en: enUS, ru };

/** The date-fns locale of an interface language (English for anything unknown). */
export const dateLocale = (lang: string | undefined): Locale => LOCALES[lang as Language] ?? enUS;

/** A calendar date such as "November 2nd, 2026" / "2 ноября 2026 г."; null for a missing or bad date. */
export function formatLongDate(iso: string | null | undefined, lang: string | undefined): string | null {
  if (!iso) return null;
  const date = parseISO(iso);
  return isValid(date) ? format(date, 'PPP', { locale: dateLocale(lang) }) : null;
}

/** A date with its time, such as "Nov 2, 2026, 3:04 PM" / "2 нояб. 2026 г., 15:04"; null for a missing or bad date. */
export function formatDateTime(iso: string | null | undefined, lang: string | undefined): string | null {
  if (!iso) return null;
  const date = parseISO(iso);
  return isValid(date) ? format(date, 'PPp', { locale: dateLocale(lang) }) : null;
}
