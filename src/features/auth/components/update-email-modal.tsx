import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { PasswordField } from '@/components/password-field';
import { TextField } from '@/components/text-field';
import { fieldMessage, toApiFailure } from '@/lib/api-errors';
import { useCurrentUser } from '@/lib/current-user';
import { closeModal } from '@/lib/modal-state';
import { ReauthCancelled, withReauth } from '@/lib/reauth';
import { changeEmail } from '../api/auth-api';
import { newEmailMessage } from '../lib/validation';

/** Server codes of the password field (decisions §12), shown in the player's language. */
const PASSWORD_CODES: Record<string, string> = {
  password_required: 'updateEmail.passwordRequired',
  invalid_password: 'updateEmail.passwordWrong',
};

/**
 * Change e-mail (spec §5, decisions §12, §13): saved only when the trimmed value is valid and with
 * proof — the account's password typed here, or (no password) the reauth prompt; success says where the link went and that the
 * address stays until it is opened.
 */
export default function UpdateEmailModal() {
  const { t } = useTranslation('auth');
  const user = useCurrentUser();
  const needsPassword = user?.password_set ?? false;
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [value, setValue] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ruleKey = newEmailMessage(value);
  const passwordMissing = needsPassword && password === '';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (ruleKey || busy) return;
    if (passwordMissing) {
      setPasswordError(t('updateEmail.passwordRequired'));
      return;
    }
    setBusy(true);
    try {
      // Proof up front where the account has a password; otherwise the server asks for it and the
      // reauth prompt obtains it (decisions §13).
      await withReauth((proof) => changeEmail(value.trim(), proof), needsPassword ? { password } : {});
      // Nothing changes until the link is opened: say where it went and what stays meanwhile.
      setSentTo(value.trim().toLowerCase());
      setBusy(false);
    } catch (err) {
      if (err instanceof ReauthCancelled) {
        setBusy(false);
        return;
      }
      // Spec §8: the failure itself is not announced; a named field problem (address in use,
      // password) is. Throttling explains itself under the password.
      const f = toApiFailure(err, t('errors:auth.changeEmail'));
      console.warn(f.message);
      setFieldError(fieldMessage(f, 'new_email'));
      const passwordKey = f.code ? PASSWORD_CODES[f.code] : undefined;
      setPasswordError(passwordKey ? t(passwordKey) : f.status === 429 ? f.message : fieldMessage(f, 'password'));
      setBusy(false);
    }
  };

  if (sentTo) {
    return (
      <Modal title={t('updateEmail.title')} onClose={closeModal}>
        <p className="modal-note" role="status">
          {t('updateEmail.sent', { email: sentTo, current: user?.email || '—' })}
        </p>
        <div className="modal-actions">
          <Button block onClick={closeModal} data-autofocus>
            {t('updateEmail.ok')}
          </Button>
        </div>
      </Modal>
    );
  }

  return (
    <Modal title={t('updateEmail.title')} description={t('updateEmail.text')} onClose={closeModal}>
      <form onSubmit={submit} noValidate>
        <TextField
          label={t('fields.newEmail')}
          type="email"
          autoComplete="email"
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            setTouched(true);
            setFieldError(null);
          }}
          error={fieldError ?? (touched && ruleKey ? t(ruleKey) : null)}
          data-autofocus
        />
        {needsPassword && (
          <PasswordField
            label={t('fields.currentPassword')}
            autoComplete="current-password"
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
              setPasswordError(null);
            }}
            error={passwordError}
          />
        )}
        <div className="modal-actions">
          <Button type="submit" block loading={busy} disabled={Boolean(ruleKey) || passwordMissing}>
            {t('updateEmail.submit')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
