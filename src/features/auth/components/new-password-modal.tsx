import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Modal } from '@/components/modal';
import { closeModal, openModal, useModalState } from '@/lib/modal-state';
import { confirmPasswordReset } from '../api/auth-api';
import { authFailure } from '../lib/auth-failure';
import { PasswordPairForm } from './password-pair-form';

/** The restore-password link (spec §2): without its token nothing is sent. Success → main page, login. */
export default function NewPasswordModal() {
  const { t } = useTranslation('auth');
  const { params } = useModalState();
  const navigate = useNavigate();
  const token = params.token ?? '';

  const send = async (password: string) => {
    if (!token) return null;
    try {
      const { email } = await confirmPasswordReset(token, password);
      closeModal();
      await navigate('/');
      // The login says what happened and knows the address the link proved.
      openModal('login', { ...(email ? { email } : {}), notice: 'passwordReset' });
      return null;
    } catch (err) {
      return authFailure(err, t('errors:auth.passwordResetConfirm')).message;
    }
  };

  return (
    <Modal title={t('newPassword.title')} onClose={closeModal}>
      <PasswordPairForm submitLabel={t('newPassword.submit')} onSubmit={send} disabled={!token}>
        {!token && (
          <p className="modal-error" role="alert">
            {t('newPassword.missingToken')}
          </p>
        )}
      </PasswordPairForm>
    </Modal>
  );
}
