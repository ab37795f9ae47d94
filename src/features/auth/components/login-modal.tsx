import { useAtom } from 'jotai';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { PasswordField } from '@/components/password-field';
import { TextField } from '@/components/text-field';
import { refreshCurrentUser } from '@/lib/current-user';
import { backModal, closeModal, switchModal, useModalState } from '@/lib/modal-state';
import { setTokens } from '@/lib/session';
import { loginByEmail } from '../api/auth-api';
import { authFailure } from '../lib/auth-failure';
import { loginCanSubmit, loginLooksActive } from '../lib/validation';
import { typedEmailAtom } from '../state/auth-forms';
import { SocialButton } from './social-button';

/** Why the login opened by itself (a finished reset or change), said above the form. */
const NOTICES: Record<string, string> = {
  passwordReset: 'login.notice.passwordReset',
  passwordChanged: 'login.notice.passwordChanged',
  emailChanged: 'login.notice.emailChanged',
  // The server does not say which (issue 24): the reason names the ways a session ends elsewhere.
  sessionEnded: 'login.notice.endedElsewhere',
};

/** E-mail login (spec §2, §5): success fetches the player and closes; failure says 'incorrect credentials'. */
export default function LoginModal() {
  const { t } = useTranslation('auth');
  const { previous, params } = useModalState();
  const [typed, setTyped] = useAtom(typedEmailAtom);
  const [email, setEmail] = useState(params.email ?? typed);
  const notice = params.notice && NOTICES[params.notice];
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (!loginCanSubmit(email, password)) {
      setError(t('login.incorrect'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const tokens = await loginByEmail(email.trim(), password);
      setTokens(tokens);
      await refreshCurrentUser();
      closeModal();
    } catch (err) {
      const f = authFailure(err, t('errors:auth.login'));
      // Unconfirmed accounts, throttling and a busy server explain themselves; wrong credentials stay vague.
      setError(
        f.code === 'email_not_confirmed' || f.status === 429 || f.code === 'busy' ? f.message : t('login.incorrect'),
      );
      setBusy(false);
    }
  };

  return (
    <Modal title={t('login.title')} onClose={closeModal} onBack={previous ? backModal : undefined}>
      <form onSubmit={submit} noValidate>
        {notice && (
          <p className="modal-note" role="status">
            {t(notice, { email })}
          </p>
        )}
        <TextField
          label={t('fields.email')}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setTyped(e.target.value);
          }}
          data-autofocus={email ? undefined : true}
        />
        <PasswordField
          label={t('fields.password')}
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          data-autofocus={email ? true : undefined}
        />
        <div className="modal-row">
          <Button variant="link" onClick={() => switchModal('forgotPassword')}>
            {t('login.forgot')}
          </Button>
          <Button variant="link" onClick={() => switchModal('register')}>
            {t('login.register')}
          </Button>
        </div>
        {error && (
          <p className="modal-error" role="alert">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <Button type="submit" block loading={busy} dim={!loginLooksActive(email, password)}>
            {t('login.submit')}
          </Button>
          <SocialButton />
        </div>
      </form>
    </Modal>
  );
}
