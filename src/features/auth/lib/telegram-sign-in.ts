// The Login Widget's callback (decisions §14): its signed fields go to POST auth/telegram/. Signed
// out, that signs in (a new player has no username yet: the username prompt asks for one next);
// signed in, it links Telegram to this account, with proof when the server asks (lib/reauth.ts).
import type { TFunction } from 'i18next';
import { toApiFailure } from '@/lib/api-errors';
import { refreshCurrentUser } from '@/lib/current-user';
import { withReauth } from '@/lib/reauth';
import { isSignedIn, setTokens } from '@/lib/session';
import { linkTelegram, loginWithTelegram } from '../api/auth-api';

export type TelegramOutcome = 'linked' | 'signedIn';

/** The fields the widget passes to the callback, as strings (the server checks their signature). */
const LOGIN_FIELDS = ['id', 'first_name', 'last_name', 'username', 'photo_url', 'auth_date', 'hash'];

/** The widget's fields from the callback's query, or null when it is not one (no id, date or hash). */
export function telegramLoginFromQuery(search: string): Record<string, string> | null {
  const query = new URLSearchParams(search);
  const login: Record<string, string> = {};
  for (const name of LOGIN_FIELDS) {
    const value = query.get(name);
    if (value !== null) login[name] = value;
  }
  return login.id && login.hash && login.auth_date ? login : null;
}

export async function completeTelegramLogin(login: Record<string, string>): Promise<TelegramOutcome> {
  if (isSignedIn()) {
    await withReauth((proof) => linkTelegram(login, proof));
    await refreshCurrentUser();
    return 'linked';
  }
  const r = await loginWithTelegram(login);
  setTokens({ access: r.access, refresh: r.refresh, device: r.device });
  await refreshCurrentUser();
  return 'signedIn';
}

/** The server's Telegram refusals, said in the player's language (its `detail` is English). */
const KNOWN = [
  'telegram_data_invalid',
  'telegram_data_expired',
  'telegram_data_used',
  'telegram_already_set',
  'telegram_in_use',
  'telegram_off',
  'throttled',
  'rate_limited',
] as const;

export function telegramErrorText(err: unknown, t: TFunction): string {
  const failure = toApiFailure(err, t('telegram.errors.failed'));
  const code = KNOWN.find((c) => c === failure.code);
  if (code) return t(`telegram.errors.${code}`);
  if (failure.status === 0) return t('errors:network');
  return failure.status >= 500 ? t('telegram.errors.failed') : failure.message;
}
