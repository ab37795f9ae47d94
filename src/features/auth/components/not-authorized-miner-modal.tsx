import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { closeModal, switchModal } from '@/lib/modal-state';

/** A visitor asked for the miner: invite them to sign in (spec §2). */
export default function NotAuthorizedMinerModal() {
  const { t } = useTranslation('auth');
  return (
    <Modal title={t('notAuthorizedMiner.title')} description={t('notAuthorizedMiner.text')} onClose={closeModal}>
      <div className="modal-actions">
        <Button block onClick={() => switchModal('main')}>
          {t('notAuthorizedMiner.login')}
        </Button>
      </div>
    </Modal>
  );
}
