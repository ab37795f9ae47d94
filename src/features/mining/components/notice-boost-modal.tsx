// Notice boost (spec §4): the boost lasts longer than the time left in the running session and its
// unused time expires. Opened by the boost select dialog when the server (or, offline, the local
// plan) says the boost does not fit; Continue leads to the confirmation with the server's message
// and the efficiency (boost-confirm-modal.tsx), which alone can apply it.
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { closeModal, switchModal, useModalState } from '@/lib/modal-state';
import './mining.css';

export default function NoticeBoostModal() {
  const { t } = useTranslation('mining');
  const { params } = useModalState();
  const hours = Number(params.hours);

  return (
    <Modal
      title={t('notice.title')}
      onClose={closeModal}
      description={Number.isFinite(hours) ? t('notice.textHours', { hours }) : t('notice.text')}
    >
      <div className="modal-actions">
        <Button block onClick={() => switchModal('boostConfirm', params)}>
          {t('notice.continue')}
        </Button>
        <Button block variant="ghost" onClick={closeModal}>
          {t('notice.cancel')}
        </Button>
      </div>
    </Modal>
  );
}
