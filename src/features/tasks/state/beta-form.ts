// The beta-test application form (spec §3, §5, §8): the client refuses what the server refuses
// (shared/beta.ts), and the server's answer is shown as its detail, else per field prefixed
// 'Telegram: ', 'Discord: ', 'Email: ', 'Wallet: ', else the fallback.
import { BETA_EMAIL_MAX, isValidDiscord, isValidTelegram, isValidWallet } from '@shared/beta';
import type { Language } from '@shared/constants';
import { localizeTaskDetail, type TaskMessageCode, taskMessage } from '@shared/task-messages';
import { isValidEmail } from '@shared/validation';
import type { ApiFailure } from '@/lib/api-errors';

export const BETA_FIELDS = ['telegram', 'discord', 'email', 'wallet'] as const;
export type BetaField = (typeof BETA_FIELDS)[number];
export type BetaValues = Record<BetaField, string>;

/** The prefix of spec §8 before a field's server error. */
export const BETA_FIELD_PREFIX: Record<BetaField, string> = {
  telegram: 'Telegram: ',
  discord: 'Discord: ',
  email: 'Email: ',
  wallet: 'Wallet: ',
};

const FORMAT_CODE: Record<BetaField, TaskMessageCode> = {
  telegram: 'invalid_telegram_format',
  discord: 'invalid_discord_format',
  email: 'invalid_email_format',
  wallet: 'invalid_wallet_format',
};

const RULE: Record<BetaField, (v: string) => boolean> = {
  telegram: isValidTelegram,
  discord: isValidDiscord,
  email: (v) => v.length <= BETA_EMAIL_MAX && isValidEmail(v),
  wallet: isValidWallet,
};

const isBetaField = (f: string): f is BetaField => (BETA_FIELDS as readonly string[]).includes(f);

/** Client-side check: the fields that break the shared rules, with the message code of each. */
export function betaFieldCodes(values: BetaValues): Partial<Record<BetaField, TaskMessageCode>> {
  const out: Partial<Record<BetaField, TaskMessageCode>> = {};
  for (const f of BETA_FIELDS) if (!RULE[f](values[f].trim())) out[f] = FORMAT_CODE[f];
  return out;
}

export const betaFieldText = (lang: Language, code: TaskMessageCode) => taskMessage(code)[lang];

export interface BetaSubmitError {
  /** Shown above the button. */
  message: string;
  /** Shown under each named field, already prefixed. */
  fields: Partial<Record<BetaField, string>>;
}

/** What a refused application shows. */
export function betaSubmitError(lang: Language, failure: ApiFailure, fallback: string): BetaSubmitError {
  const fields: Partial<Record<BetaField, string>> = {};
  for (const e of failure.fields) {
    if (!isBetaField(e.field) || fields[e.field]) continue;
    fields[e.field] = BETA_FIELD_PREFIX[e.field] + localizeTaskDetail(lang, e.message);
  }
  // Spec §8: the detail first; only without one do the prefixed field errors make the message.
  if (failure.fromServer && !failure.serverFault) {
    return { message: localizeTaskDetail(lang, failure.message, failure.code ?? undefined), fields };
  }
  const prefixed = BETA_FIELDS.flatMap((f) => (fields[f] ? [fields[f]] : []));
  if (prefixed.length > 0) return { message: prefixed.join('\n'), fields };
  return { message: fallback, fields };
}
