// What every sign-in modal does with a failed call: the 5xx case opens the error modal (spec §4),
// the rest is shown in the modal. A busy server (503 `busy`: too many password checks at once)
// says so in the player's language, so the player retries rather than doubting the password.
import { toApiFailure, type ApiFailure } from '@/lib/api-errors';
import { i18n } from '@/lib/i18n';
import { openModal } from '@/lib/modal-state';

export function authFailure(err: unknown, fallback: string): ApiFailure {
  const failure = toApiFailure(err, fallback);
  if (failure.serverFault) openModal('error');
  if (failure.code === 'busy') return { ...failure, message: i18n.t('errors:busy') };
  return failure;
}
