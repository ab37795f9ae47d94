import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { closeModal } from '@/lib/modal-state';

/** 'Something went wrong' (spec §2, §8): opened when the server fails an auth call. */
export default function ErrorModal() {
  const { t } = useTranslation('errors');
  return (
    <Modal title={t('generic.title')} description={t('generic.text')} onClose={closeModal}>
      <div className="modal-actions">
        <Button block onClick={() => window.location.reload()}>
          {t('common:actions.reload')}
        </Button>
        <Button block variant="ghost" onClick={closeModal}>
          {t('common:actions.close')}
        </Button>
      </div>
    </Modal>
  );
}
