import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { logout } from '@/lib/current-user';
import { closeModal, openModal, switchModal, useModalState } from '@/lib/modal-state';
import { rememberReturnTo } from '@/lib/return-to';
import { useIsSignedIn } from '../lib/use-signed-in';

/**
 * An added-address or e-mail-change link opened by another account, or signed out (decisions §13):
 * nothing changed. Signed out: sign in, and the link runs again (app/return-after-sign-in.tsx).
 * Signed in as someone else: open it in the browser of that account, or sign out and in as it.
 */
export default function WrongAccountModal() {
  const { t } = useTranslation('auth');
  const { params } = useModalState();
  const signedIn = useIsSignedIn();
  const [busy, setBusy] = useState(false);
  const link = params.link && params.link.startsWith('/') ? params.link : null;

  const signIn = () => {
    if (link) rememberReturnTo(link);
    switchModal('main');
  };

  const switchAccount = async () => {
    setBusy(true);
    await logout();
    if (link) rememberReturnTo(link);
    openModal('main');
  };

  return (
    <Modal title={t('wrongAccount.title')} onClose={closeModal}>
      <p className="modal-note" role="alert">
        {t(signedIn ? 'wrongAccount.signedIn' : 'wrongAccount.signedOut')}
      </p>
      <div className="modal-actions">
        {signedIn ? (
          <>
            <Button block onClick={closeModal} data-autofocus>
              {t('wrongAccount.ok')}
            </Button>
            <Button block variant="ghost" loading={busy} onClick={() => void switchAccount()}>
              {t('wrongAccount.switch')}
            </Button>
          </>
        ) : (
          <Button block onClick={signIn} data-autofocus>
            {t('wrongAccount.signIn')}
          </Button>
        )}
      </div>
    </Modal>
  );
}
