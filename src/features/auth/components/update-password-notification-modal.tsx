import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { closeModal } from '@/lib/modal-state';

/** 'To change your password, please check your email.' (after GET auth/change-password-request/). */
export default function UpdatePasswordNotificationModal() {
  const { t } = useTranslation('auth');
  return (
    <Modal
      title={t('updatePasswordNotification.title')}
      description={t('updatePasswordNotification.text')}
      onClose={closeModal}
    >
      <div className="modal-actions">
        <Button block onClick={closeModal}>
          {t('updatePasswordNotification.ok')}
        </Button>
      </div>
    </Modal>
  );
}
