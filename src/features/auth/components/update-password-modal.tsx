import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { refreshCurrentUser, useCurrentUser } from '@/lib/current-user';
import { closeModal, openModal, useModalState } from '@/lib/modal-state';
import { isSignedIn, setTokens, signOut } from '@/lib/session';
import { confirmPasswordChange } from '../api/auth-api';
import { authFailure } from '../lib/auth-failure';
import { PasswordPairForm } from './password-pair-form';

/**
 * Opened by the password-change link (spec §2): the server's message lands under the repeat field.
 * Success says so; this browser stays signed in with the fresh pair the server answered (issue 16),
 * and a browser the server did not keep is signed out now and offered the login, never later by
 * surprise.
 */
export default function UpdatePasswordModal() {
  const { t } = useTranslation('auth');
  const { params } = useModalState();
  const email = useCurrentUser()?.email ?? '';
  const token = params.token ?? '';
  const [done, setDone] = useState(false);
  // A registration link opened in another browser: signed in, but no password yet (decisions §13).
  const noPassword = params.notice === 'noPassword';

  const send = async (password: string, confirm: string) => {
    if (!token) return null;
    try {
      const res = await confirmPasswordChange({ token, new_password: password, confirm_new_password: confirm });
      if (res.access && res.refresh) {
        setTokens({ access: res.access, refresh: res.refresh });
        void refreshCurrentUser();
        setDone(true);
        return null;
      }
      // Every session of the account was revoked and this one was not renewed.
      if (isSignedIn()) await signOut();
      openModal('login', { ...(email ? { email } : {}), notice: 'passwordChanged' });
      return null;
    } catch (err) {
      return authFailure(err, t('errors:auth.changePasswordRequest')).message;
    }
  };

  if (done) {
    return (
      <Modal title={t(noPassword ? 'noPassword.title' : 'updatePassword.title')} onClose={closeModal}>
        <p className="modal-note" role="status">
          {t(noPassword ? 'noPassword.done' : 'updatePassword.done')}
        </p>
        <div className="modal-actions">
          <Button block onClick={closeModal} data-autofocus>
            {t('updatePassword.ok')}
          </Button>
        </div>
      </Modal>
    );
  }

  return (
    <Modal title={t(noPassword ? 'noPassword.title' : 'updatePassword.title')} onClose={closeModal}>
      <PasswordPairForm
        submitLabel={t(noPassword ? 'noPassword.submit' : 'updatePassword.submit')}
        onSubmit={send}
        disabled={!token}
      >
        {noPassword && (
          <p className="modal-note" role="status">
            {t('noPassword.text')}
          </p>
        )}
        {!token && (
          <p className="modal-error" role="alert">
            {t('newPassword.missingToken')}
          </p>
        )}
      </PasswordPairForm>
    </Modal>
  );
}
