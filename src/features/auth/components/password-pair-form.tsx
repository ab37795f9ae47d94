import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { PasswordField } from '@/components/password-field';
import { confirmMessage, passwordMessage, passwordPairValid } from '../lib/validation';

interface Props {
  submitLabel: string;
  /** Sends the pair; resolves with a message to show under the repeat field, or null on success. */
  onSubmit: (password: string, confirm: string) => Promise<string | null>;
  disabled?: boolean;
  children?: ReactNode;
}

/** New password + repeat, shared by the new-password and update-password dialogs (spec §5). */
export function PasswordPairForm({ submitLabel, onSubmit, disabled, children }: Props) {
  const { t } = useTranslation('auth');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const valid = passwordPairValid(password, confirm);
  const pwKey = passwordMessage(password);
  const confirmKey = confirmMessage(password, confirm);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!valid || busy || disabled) return;
    setBusy(true);
    setServerError(null);
    const message = await onSubmit(password, confirm);
    setServerError(message);
    setBusy(false);
  };

  return (
    <form onSubmit={submit} noValidate>
      {children}
      <PasswordField
        label={t('fields.newPassword')}
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={pwKey && t(pwKey)}
        data-autofocus
      />
      <PasswordField
        label={t('fields.repeatPassword')}
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => {
          setConfirm(e.target.value);
          setServerError(null);
        }}
        error={serverError ?? (confirmKey && t(confirmKey))}
      />
      <div className="modal-actions">
        <Button type="submit" block loading={busy} disabled={!valid || disabled}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
