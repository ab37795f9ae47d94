// The mining error texts of spec §8: the server's detail, then its message, then the JSON body,
// otherwise the call's default. Refusals the server names with a known code are shown in the
// player's language instead of the server's English detail — the mining codes from this screen's
// catalogue, every other code (rate limits, a restarting server, …) from the app's one translation
// in lib/api-errors.ts — and no answer at all is the network text.
import type { i18n as I18n, TFunction } from 'i18next';
import type { OutboxRow } from '@/lib/db';
import { codeText, toApiFailure } from '@/lib/api-errors';
import { modalStateAtom, openModal } from '@/lib/modal-state';
import { refusalText } from '@/lib/outbox';
import { store } from '@/lib/store';

/** The spec's default per call (keys of `errors` in the mining namespace). */
export type MiningCall =
  | 'start'
  | 'claim'
  | 'boosts'
  | 'sessions'
  | 'applyBoost'
  | 'selectBoost'
  | 'taskBoost'
  | 'referralBoost'
  | 'autoMiner'
  | 'shop'
  | 'buy'
  | 'assets'
  | 'subscriptions'
  | 'topUp';

/** Server codes with a text of their own in both languages (`errors.codes.*`). */
export const KNOWN_CODES = [
  'session_exists',
  'session_not_finished',
  'nothing_to_claim',
  'no_running_session',
  'boost_already_used',
  'boost_not_found',
  'no_time_left',
  'not_enough_gems',
  'no_new_referrals',
  'payments_unavailable',
  'payment_method_unavailable',
  'too_many_open_orders',
  'payment_provider_error',
  'wallet_required',
  'tx_reverted',
  'tx_wrong_token',
  'tx_wrong_recipient',
  'tx_wrong_sender',
  'tx_amount_too_low',
  'tx_used',
  'order_not_pending',
  'order_not_found',
  'chain_unavailable',
] as const;
export type KnownCode = (typeof KNOWN_CODES)[number];

export const isKnownCode = (code: string | null): code is KnownCode =>
  (KNOWN_CODES as readonly string[]).includes(code ?? '');

export interface MiningFailure {
  text: string;
  code: string | null;
  status: number;
  /** No answer came back (offline). */
  network: boolean;
}

export function miningFailure(err: unknown, call: MiningCall, t: TFunction): MiningFailure {
  const f = toApiFailure(err, '');
  if (f.status === 0 && !f.body) return { text: t('errors:network'), code: null, status: 0, network: true };
  if (isKnownCode(f.code))
    return { text: t(`mining:errors.codes.${f.code}`), code: f.code, status: f.status, network: false };
  // A code the whole app shares (a rate limit, a restarting server): the same words, and the same
  // wait from Retry-After, as on every other screen.
  if (f.codeText) return { text: f.codeText, code: f.code, status: f.status, network: false };
  return { text: refusalText(err) ?? t(`mining:errors.${call}`), code: f.code, status: f.status, network: false };
}

/** The outbox calls the mining screens name (`mining:outbox.actions.*`): theirs and the arcade's tier claim. */
export type OutboxCallName = 'start' | 'claim' | 'selectBoost' | 'applyBoost' | 'arcadeClaim';

/** Which call an outbox row is, for its notice; null for a path no screen names (shown as it is). */
export function outboxCallName(path: string): OutboxCallName | null {
  if (path.startsWith('mining/start')) return 'start';
  if (path.startsWith('mining/claim')) return 'claim';
  if (path.startsWith('mining/select-temp-boost')) return 'selectBoost';
  if (path.startsWith('mining/apply-temp-boost')) return 'applyBoost';
  if (path.startsWith('arcade/claim')) return 'arcadeClaim';
  return null;
}

/**
 * Why the server refused a replayed call, in the language the notice is drawn in: the row keeps the
 * code, so the text follows the player's language (a language switch included); the server's own
 * words only for a code we have no text for, then the call's default. `i18next` is the instance the
 * notice's `useTranslation` reads.
 */
export function outboxRefusalText(row: Pick<OutboxRow, 'path' | 'code' | 'error'>, i18next: I18n): string {
  if (isKnownCode(row.code ?? null)) return i18next.t(`mining:errors.codes.${row.code}`);
  const own = codeText(row.code, null, i18next);
  if (own) return own;
  if (row.error) return row.error;
  const call = outboxCallName(row.path);
  return call && call !== 'arcadeClaim' ? i18next.t(`mining:errors.${call}`) : i18next.t('errors:unexpected');
}

/**
 * A 401 that survived the API client's token renewal means the sign-in is over (the client has
 * signed the player out already): invite them back with the not-authorized-miner prompt. A
 * deliberate logout never gets here, so it does not show the prompt.
 */
export function promptIfSignedOut(f: MiningFailure): void {
  // A session ended elsewhere has opened the sign-in with its reason already (lib/session.ts).
  if (f.status === 401 && !store.get(modalStateAtom).open) openModal('notAuthorizedMiner');
}
