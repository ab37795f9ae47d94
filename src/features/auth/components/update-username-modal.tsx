import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { USERNAME_MAX } from '@shared/constants';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { TextField } from '@/components/text-field';
import { refreshCurrentUser, useCurrentUser } from '@/lib/current-user';
import { closeModal } from '@/lib/modal-state';
import { completeRegistration } from '../api/auth-api';
import { authFailure } from '../lib/auth-failure';
import { usernameInput, usernameMessage } from '../lib/validation';
import { storedReferralLink } from '../state/auth-forms';

/** Change the username (spec §5): 5–15 characters; taken / 'Username error: …' / unexpected. */
export default function UpdateUsernameModal() {
  const { t } = useTranslation('auth');
  const user = useCurrentUser();
  const [username, setUsername] = useState(user?.username ?? '');
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ruleKey = usernameMessage(username);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (ruleKey || busy) return;
    setBusy(true);
    setError(null);
    try {
      await completeRegistration(username.trim(), storedReferralLink());
      await refreshCurrentUser();
      closeModal();
    } catch (err) {
      const f = authFailure(err, t('errors:unexpected'));
      if (f.code === 'username_taken' || /already taken/i.test(f.message)) setError(t('validation.usernameTaken'));
      else if (f.status === 400) setError(t('validation.usernameError', { message: f.message }));
      else setError(t('errors:unexpected'));
      setBusy(false);
    }
  };

  return (
    <Modal title={t('updateUsername.title')} onClose={closeModal}>
      <form onSubmit={submit} noValidate>
        <TextField
          label={t('fields.username')}
          maxLength={USERNAME_MAX}
          value={username}
          onChange={(e) => {
            setUsername(usernameInput(e.target.value));
            setTouched(true);
            setError(null);
          }}
          error={error ?? (touched && ruleKey ? t(ruleKey) : null)}
          data-autofocus
        />
        <div className="modal-actions">
          <Button type="submit" block loading={busy} disabled={Boolean(ruleKey)}>
            {t('updateUsername.submit')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
