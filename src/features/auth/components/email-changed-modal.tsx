import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { closeModal, useModalState } from '@/lib/modal-state';

/** After the e-mail-change link (issue 16): the new address, said where the player lands. */
export default function EmailChangedModal() {
  const { t } = useTranslation('auth');
  const { params } = useModalState();
  return (
    <Modal title={t('emailChanged.title')} onClose={closeModal}>
      <p className="modal-note" role="status">
        {t('emailChanged.text', { email: params.email ?? '' })}
      </p>
      <div className="modal-actions">
        <Button block onClick={closeModal} data-autofocus>
          {t('emailChanged.ok')}
        </Button>
      </div>
    </Modal>
  );
}
