// What every sign-in modal does with a failed call: the 5xx case opens the error modal (spec §4),
// the rest is shown in the modal.
import { toApiFailure, type ApiFailure } from '../../../lib/api-errors';
import { openModal } from '../../../lib/modal-state';

export function authFailure(err: unknown, fallback: string): ApiFailure {
  const failure = toApiFailure(err, fallback);
  if (failure.serverFault) openModal('error');
  return failure;
}
