import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { closeModal, switchModal } from '@/lib/modal-state';
import './auth-modals.css';

/** Link a wallet to the signed-in account (the wallet quest); the confirmation modal does the work. */
export default function ConnectWalletModal() {
  const { t } = useTranslation('auth');
  return (
    <Modal title={t('connectWallet.title')} description={t('connectWallet.text')} onClose={closeModal}>
      <div className="modal-actions">
        <Button block onClick={() => switchModal('confirmWallet')}>
          {t('connectWallet.connect')}
        </Button>
      </div>
    </Modal>
  );
}
