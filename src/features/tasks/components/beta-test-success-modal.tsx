import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { closeModal } from '@/lib/modal-state';

/** The application went through (spec §2 "success beta test application"). */
export default function BetaTestSuccessModal() {
  const { t } = useTranslation('tasks');
  return (
    <Modal title={t('beta.success.title')} description={t('beta.success.text')} onClose={closeModal}>
      <div className="modal-actions">
        <Button block onClick={closeModal}>
          {t('beta.success.ok')}
        </Button>
      </div>
    </Modal>
  );
}
