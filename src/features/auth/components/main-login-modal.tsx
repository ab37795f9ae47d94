import { Trans, useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { TelegramLoginButton } from '@/components/telegram-login-button';
import { closeModal, switchModal, useModalState } from '@/lib/modal-state';
import { SocialButton } from './social-button';
import './auth-modals.css';

/**
 * The main login (spec §2): wallet, e-mail, Google or Telegram (each of the last two only where the
 * server has it), the privacy and terms note, an error line (the Google button's, under it).
 */
export default function MainLoginModal() {
  const { t } = useTranslation('auth');
  // A session ended elsewhere of an account without an e-mail (lib/session.ts) says so here.
  const ended = useModalState().params.notice === 'sessionEnded';

  return (
    <Modal title={t('main.title')} description={t('main.subtitle')} onClose={closeModal} className="auth-main">
      {ended && (
        <p className="modal-note" role="status">
          {t('login.notice.endedElsewhere')}
        </p>
      )}
      <div className="modal-actions">
        <Button block onClick={() => switchModal('confirmWallet')} icon={<WalletMark />}>
          {t('main.wallet')}
        </Button>
        <Button block variant="secondary" onClick={() => switchModal('login')} icon={<MailMark />}>
          {t('main.email')}
        </Button>
        <SocialButton />
        <TelegramLoginButton />
      </div>
      <p className="modal-note">
        <Trans
          t={t}
          i18nKey="main.terms"
          components={{
            // A new tab keeps this dialog (and what was typed) while the document is read.
            // eslint-disable-next-line jsx-a11y/anchor-has-content -- Trans puts the text in
            privacy: <a href="/privacy" target="_blank" rel="noopener" />,
            // eslint-disable-next-line jsx-a11y/anchor-has-content -- Trans puts the text in
            terms: <a href="/terms" target="_blank" rel="noopener" />,
          }}
        />
      </p>
    </Modal>
  );
}

function WalletMark() {
  return (
    <svg width="18" height="18" viewBox="0 0 9 9" shapeRendering="crispEdges" aria-hidden="true">
      <path fill="currentColor" d="M1 2h7v1H1zM0 3h1v5H0zM1 8h7v1H1zM8 3h1v5H8zM5 4h4v3H5z" />
    </svg>
  );
}

function MailMark() {
  return (
    <svg width="18" height="18" viewBox="0 0 9 9" shapeRendering="crispEdges" aria-hidden="true">
      <path
        fill="currentColor"
        d="M0 1h9v1H0zM0 2h1v6H0zM8 2h1v6H8zM0 8h9v1H0zM1 2h1v1H1zM2 3h1v1H2zM3 4h3v1H3zM6 3h1v1H6zM7 2h1v1H7z"
      />
    </svg>
  );
}
