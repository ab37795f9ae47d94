import { useTranslation } from 'react-i18next';
import { Modal } from '@/components/modal';
import { closeModal, useModalState } from '@/lib/modal-state';
import { confirmPasswordChange } from '../api/auth-api';
import { authFailure } from '../lib/auth-failure';
import { PasswordPairForm } from './password-pair-form';

/** Opened by the password-change link (spec §2): the server's message lands under the repeat field. */
export default function UpdatePasswordModal() {
  const { t } = useTranslation('auth');
  const { params } = useModalState();
  const token = params.token ?? '';

  const send = async (password: string, confirm: string) => {
    if (!token) return null;
    try {
      await confirmPasswordChange({ token, new_password: password, confirm_new_password: confirm });
      closeModal();
      return null;
    } catch (err) {
      return authFailure(err, t('errors:auth.changePasswordRequest')).message;
    }
  };

  return (
    <Modal title={t('updatePassword.title')} onClose={closeModal}>
      <PasswordPairForm submitLabel={t('updatePassword.submit')} onSubmit={send} disabled={!token}>
        {!token && (
          <p className="modal-error" role="alert">
            {t('newPassword.missingToken')}
          </p>
        )}
      </PasswordPairForm>
    </Modal>
  );
}
