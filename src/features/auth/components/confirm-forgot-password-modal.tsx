import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { closeModal, switchModal, useModalState } from '@/lib/modal-state';
import './auth-modals.css';

/** After "forgot password": check your inbox, with 'try again' back to the form. */
export default function ConfirmForgotPasswordModal() {
  const { t } = useTranslation('auth');
  const { params } = useModalState();
  return (
    <Modal title={t('confirmForgot.title')} description={t('confirmForgot.text')} onClose={closeModal}>
      {params.email && <strong className="auth-email">{params.email}</strong>}
      <div className="modal-actions">
        <Button block onClick={closeModal}>
          {t('common:actions.close')}
        </Button>
        <Button variant="link" onClick={() => switchModal('forgotPassword', { email: params.email ?? '' })}>
          {t('confirmForgot.tryAgain')}
        </Button>
      </div>
    </Modal>
  );
}
