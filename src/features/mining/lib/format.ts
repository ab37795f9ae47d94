// Number, countdown and date formatting of the mining screens (date-fns for durations and dates).
import { format, intervalToDuration } from 'date-fns';
import { enUS } from 'date-fns/locale/en-US';
import { ru } from 'date-fns/locale/ru';
import { formatGems } from '@/lib/format-pxt';
import { formatDecimal } from '@/lib/number-format';

const pad = (n: number | undefined) => String(n ?? 0).padStart(2, '0');

/** 'HH:MM:SS' for a remaining time (hours keep counting past a day). */
export function formatCountdown(remainingMs: number): string {
  const total = Math.max(0, Math.ceil(remainingMs / 1000)) * 1000;
  const d = intervalToDuration({ start: 0, end: total });
  const hours = (d.days ?? 0) * 24 + (d.hours ?? 0);
  return `${pad(hours)}:${pad(d.minutes)}:${pad(d.seconds)}`;
}

// PXT amounts: formatPxt in src/lib/format-pxt.ts (one formatter for the whole app).

/** Whole Gems, the app-wide way (kept under this name for the dialogs that call it). */
export const formatInteger = formatGems;

/** PXT per hour, e.g. 1.15 or 2.3. */
export function formatRate(value: number, language: string): string {
  return formatDecimal(value, language, 0, 4);
}

/** A date and time in the player's language, e.g. 'Jan 31, 2026, 8:00 PM' / '31 янв. 2026 г., 20:00'. */
export function formatDateTime(at: Date | number | string, language: string): string {
  return format(new Date(at), 'PPp', { locale: language === 'ru' ? ru : enUS });
}

/** Clock time only, for times later today. */
export function formatTime(at: Date | number | string, language: string): string {
  return format(new Date(at), 'p', { locale: language === 'ru' ? ru : enUS });
}

export function formatPrice(usd: number, language: string): string {
  return new Intl.NumberFormat(language, { style: 'currency', currency: 'USD' }).format(usd);
}
