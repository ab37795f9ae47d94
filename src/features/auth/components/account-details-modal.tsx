import { useAtomValue } from 'jotai';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { USERNAME_MAX } from '@shared/constants';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { TextField } from '@/components/text-field';
import { toApiFailure } from '@/lib/api-errors';
import { refreshCurrentUser, userStatusAtom } from '@/lib/current-user';
import { backModal, closeModal, useModalState } from '@/lib/modal-state';
import { rememberGuideDue } from '@/lib/new-player-guide';
import { takeReturnTo } from '@/lib/return-to';
import { completeRegistration } from '../api/auth-api';
import { firstUsernameMessage, firstUsernameValid, usernameInput } from '../lib/validation';
import { storedReferralLink } from '../state/auth-forms';

/**
 * First-time username (spec §2, §5). It cannot be closed or dismissed; the back arrow shows only
 * when it came from the wallet confirmation. Success sends the new player to the miner with its
 * guide (issue 24: the main page left them two taps from Start), or to the article they had chosen.
 */
export default function AccountDetailsModal() {
  const { t } = useTranslation('auth');
  const { previous } = useModalState();
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Undismissable only for a player /auth/me vouched for; after a failed fetch (spec §4: not
  // authenticated) the dialog can be closed, so no one is stranded in it.
  const stranded = useAtomValue(userStatusAtom) === 'anonymous';

  const ruleKey = touched ? firstUsernameMessage(username) : null;
  const valid = firstUsernameValid(username);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!valid || busy) return;
    setBusy(true);
    setError(null);
    try {
      await completeRegistration(username.trim(), storedReferralLink());
      await refreshCurrentUser();
      rememberGuideDue();
      closeModal();
      void navigate(takeReturnTo() ?? '/miner');
    } catch (err) {
      const f = toApiFailure(err, t('errors:unexpected'));
      // This dialog cannot be dismissed, so a server fault is told here rather than in the error modal.
      // Spec §5: ANY 400 reads 'taken' here (unlike the update-username dialog).
      if (f.status === 400) setError(t('validation.usernameTaken'));
      else if (f.serverFault) setError(t('errors:internal'));
      else setError(t('errors:unexpected'));
      setBusy(false);
    }
  };

  return (
    <Modal
      title={t('accountDetails.title')}
      description={t('accountDetails.text')}
      onBack={previous === 'confirmWallet' ? backModal : undefined}
      onClose={stranded ? closeModal : undefined}
    >
      <form onSubmit={submit} noValidate>
        <TextField
          label={t('fields.username')}
          autoComplete="username"
          maxLength={USERNAME_MAX}
          value={username}
          onChange={(e) => {
            setUsername(usernameInput(e.target.value));
            setTouched(true);
            setError(null);
          }}
          error={error ?? (ruleKey && t(ruleKey))}
          data-autofocus
        />
        <div className="modal-actions">
          <Button type="submit" block loading={busy} disabled={!valid}>
            {t('accountDetails.submit')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
