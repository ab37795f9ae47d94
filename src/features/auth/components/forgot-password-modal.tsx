import { useAtom } from 'jotai';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isValidEmail } from '@shared/validation';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { TextField } from '@/components/text-field';
import { toApiFailure } from '@/lib/api-errors';
import { backModal, closeModal, switchModal, useModalState } from '@/lib/modal-state';
import { requestPasswordReset } from '../api/auth-api';
import { emailMessage } from '../lib/validation';
import { typedEmailAtom } from '../state/auth-forms';

/** Forgot password (spec §2, §4): the confirmation follows whether or not the request succeeds. */
export default function ForgotPasswordModal() {
  const { t } = useTranslation('auth');
  const { previous, params } = useModalState();
  const [typed, setTyped] = useAtom(typedEmailAtom);
  const [email, setEmail] = useState(params.email ?? typed);
  const [busy, setBusy] = useState(false);
  const valid = isValidEmail(email.trim());
  const key = emailMessage(email);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!valid || busy) return;
    setBusy(true);
    try {
      await requestPasswordReset(email.trim());
    } catch (err) {
      console.warn(toApiFailure(err, 'Password reset failed').message);
    }
    switchModal('confirmForgotPassword', { email: email.trim() });
  };

  return (
    <Modal
      title={t('forgot.title')}
      description={t('forgot.text')}
      onClose={closeModal}
      onBack={previous ? backModal : undefined}
    >
      <form onSubmit={submit} noValidate>
        <TextField
          label={t('fields.email')}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setTyped(e.target.value);
          }}
          error={key && t(key)}
          data-autofocus
        />
        <div className="modal-actions">
          <Button type="submit" block loading={busy} disabled={!valid}>
            {t('forgot.submit')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
