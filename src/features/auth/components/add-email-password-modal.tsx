import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { PasswordField } from '@/components/password-field';
import { TextField } from '@/components/text-field';
import { fieldMessage } from '@/lib/api-errors';
import { closeModal, openModal } from '@/lib/modal-state';
import { ReauthCancelled, withReauth } from '@/lib/reauth';
import { addEmailPassword } from '../api/auth-api';
import { authFailure } from '../lib/auth-failure';
import { confirmMessage, emailMessage, passwordMessage, passwordPairValid } from '../lib/validation';
import { isValidEmail } from '@shared/validation';

/** Add an e-mail and password to a wallet account (spec §2, §5); success → confirm e-mail replaces it. */
export default function AddEmailPasswordModal() {
  const { t } = useTranslation('auth');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const valid = isValidEmail(email.trim()) && passwordPairValid(password, confirm);
  const emailKey = emailMessage(email);
  const pwKey = passwordMessage(password);
  const confirmKey = confirmMessage(password, confirm);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!valid || busy) return;
    setBusy(true);
    setEmailError(null);
    setFormError(null);
    try {
      // Proof is a reauth string (decisions §13): the server asks, the reauth prompt obtains it.
      await withReauth(({ reauth }) =>
        addEmailPassword({ email: email.trim(), password, confirm_password: confirm, ...(reauth ? { reauth } : {}) }),
      );
      openModal('confirmEmail');
    } catch (err) {
      if (err instanceof ReauthCancelled) {
        setBusy(false);
        return;
      }
      // Spec §8: the server's message, else 'Add email and password failed'.
      const f = authFailure(err, t('errors:auth.addEmailPassword'));
      const inUse = f.code === 'email_in_use' || /already in use/i.test(fieldMessage(f, 'email') ?? f.message);
      if (inUse) setEmailError(t('addEmailPassword.emailInUse'));
      else setFormError(f.message);
      setBusy(false);
    }
  };

  return (
    <Modal title={t('addEmailPassword.title')} description={t('addEmailPassword.text')} onClose={closeModal}>
      <form onSubmit={submit} noValidate>
        <TextField
          label={t('fields.email')}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setEmailError(null);
          }}
          error={emailError ?? (emailKey && t(emailKey))}
          data-autofocus
        />
        <PasswordField
          label={t('fields.password')}
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={pwKey && t(pwKey)}
        />
        <PasswordField
          label={t('fields.repeatPassword')}
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          error={confirmKey && t(confirmKey)}
        />
        {formError && (
          <p className="modal-error" role="alert">
            {formError}
          </p>
        )}
        <div className="modal-actions">
          <Button type="submit" block loading={busy} disabled={!valid}>
            {t('addEmailPassword.submit')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
