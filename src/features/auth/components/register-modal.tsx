import { useAtom } from 'jotai';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { PasswordField } from '@/components/password-field';
import { TextField } from '@/components/text-field';
import { registrationMessage } from '@/lib/api-errors';
import { backModal, closeModal, switchModal, useModalState } from '@/lib/modal-state';
import { register } from '../api/auth-api';
import { authFailure } from '../lib/auth-failure';
import { confirmMessage, emailMessage, passwordMessage, registrationCanSubmit } from '../lib/validation';
import { registrationAtom, typedEmailAtom } from '../state/auth-forms';
import './auth-modals.css';

/** Registration (spec §2, §5): e-mail, password, repeat, agreement; success → confirm registration. */
export default function RegisterModal() {
  const { t } = useTranslation('auth');
  const { previous } = useModalState();
  const [saved, setSaved] = useAtom(registrationAtom);
  const [typed, setTyped] = useAtom(typedEmailAtom);
  const [email, setEmail] = useState(typed || (saved?.email ?? ''));
  const [password, setPassword] = useState(saved?.password ?? '');
  const [confirm, setConfirm] = useState(saved?.confirm_password ?? '');
  const [agreed, setAgreed] = useState(false);
  const [agreementError, setAgreementError] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const agreeId = useId();

  const canSubmit = registrationCanSubmit({ email, password, confirm, agreed });
  const emailKey = emailMessage(email);
  const passwordKey = passwordMessage(password);
  const confirmKey = confirmMessage(password, confirm);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!canSubmit || busy) return;
    if (!agreed) {
      setAgreementError(true);
      return;
    }
    setBusy(true);
    setServerError(null);
    const form = { email: email.trim(), password, confirm_password: confirm };
    try {
      await register(form);
      setSaved(form);
      switchModal('confirmRegistration');
    } catch (err) {
      setServerError(registrationMessage(authFailure(err, t('errors:auth.registration'))));
      setBusy(false);
    }
  };

  return (
    <Modal title={t('register.title')} onClose={closeModal} onBack={previous ? backModal : () => switchModal('login')}>
      <form onSubmit={submit} noValidate>
        <TextField
          label={t('fields.email')}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setTyped(e.target.value);
            setServerError(null);
          }}
          error={serverError ?? (emailKey && t(emailKey))}
          data-autofocus
        />
        <PasswordField
          label={t('fields.password')}
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={passwordKey && t(passwordKey)}
        />
        <PasswordField
          label={t('fields.repeatPassword')}
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          error={confirmKey && t(confirmKey)}
        />
        <label className="auth-check" htmlFor={agreeId}>
          <input
            id={agreeId}
            type="checkbox"
            checked={agreed}
            aria-invalid={agreementError || undefined}
            onChange={(e) => {
              setAgreed(e.target.checked);
              if (e.target.checked) setAgreementError(false);
            }}
          />
          <span>{t('register.agree')}</span>
        </label>
        {agreementError && (
          <p className="modal-error" role="alert">
            {t('register.agreementError')}
          </p>
        )}
        <div className="modal-actions">
          <Button type="submit" block loading={busy} disabled={!canSubmit}>
            {t('register.submit')}
          </Button>
          <Button variant="link" onClick={() => switchModal('login')}>
            {t('register.haveAccount')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
