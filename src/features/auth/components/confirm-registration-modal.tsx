import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { registrationMessage } from '@/lib/api-errors';
import { closeModal, switchModal } from '@/lib/modal-state';
import { register } from '../api/auth-api';
import { authFailure } from '../lib/auth-failure';
import { registrationAtom } from '../state/auth-forms';
import './auth-modals.css';

/** "Confirm your e-mail" after registering: the address, a change link back, and send again. */
export default function ConfirmRegistrationModal() {
  const { t } = useTranslation('auth');
  const form = useAtomValue(registrationAtom);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const sendAgain = async () => {
    if (!form) return;
    setBusy(true);
    setNote(null);
    setError(null);
    try {
      // The server treats a repeat registration of an unconfirmed address as "send the link again".
      await register(form);
      setNote(t('confirmRegistration.sent'));
    } catch (err) {
      setError(registrationMessage(authFailure(err, t('errors:auth.registration'))));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title={t('confirmRegistration.title')} onClose={closeModal}>
      <p className="modal__description">{t('confirmRegistration.text')}</p>
      {form && (
        <strong className="auth-email" data-testid="registration-email">
          {form.email}
        </strong>
      )}
      <div className="modal-actions">
        <Button block loading={busy} disabled={!form} onClick={() => void sendAgain()}>
          {t('confirmRegistration.sendAgain')}
        </Button>
        <Button variant="link" onClick={() => switchModal('register')}>
          {t('confirmRegistration.change')}
        </Button>
      </div>
      {note && (
        <p className="modal-note" role="status">
          {note}
        </p>
      )}
      {error && (
        <p className="modal-error" role="alert">
          {error}
        </p>
      )}
    </Modal>
  );
}
