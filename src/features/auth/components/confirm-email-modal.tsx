import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { closeModal } from '@/lib/modal-state';

/** "Check your inbox" after adding an e-mail and password. */
export default function ConfirmEmailModal() {
  const { t } = useTranslation('auth');
  return (
    <Modal title={t('confirmEmail.title')} description={t('confirmEmail.text')} onClose={closeModal}>
      <div className="modal-actions">
        <Button block onClick={closeModal}>
          {t('confirmEmail.ok')}
        </Button>
      </div>
    </Modal>
  );
}
