import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button';
import { Modal } from '../../../components/modal';
import { TextField } from '../../../components/text-field';
import { fieldMessage, toApiFailure } from '../../../lib/api-errors';
import { closeModal } from '../../../lib/modal-state';
import { changeEmail } from '../api/auth-api';
import { newEmailMessage } from '../lib/validation';

/** Change e-mail (spec §5): saved only when the trimmed value is valid; success closes the dialog. */
export default function UpdateEmailModal() {
  const { t } = useTranslation('auth');
  const [value, setValue] = useState('');
  const [touched, setTouched] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ruleKey = newEmailMessage(value);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (ruleKey || busy) return;
    setBusy(true);
    try {
      await changeEmail(value.trim());
      closeModal();
    } catch (err) {
      // Spec §8: the failure itself is not announced; a named field problem (address in use) is.
      const f = toApiFailure(err, t('errors:auth.changeEmail'));
      console.warn(f.message);
      setFieldError(fieldMessage(f, 'new_email'));
      setBusy(false);
    }
  };

  return (
    <Modal title={t('updateEmail.title')} description={t('updateEmail.text')} onClose={closeModal}>
      <form onSubmit={submit} noValidate>
        <TextField
          label={t('fields.newEmail')}
          type="email"
          autoComplete="email"
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            setTouched(true);
            setFieldError(null);
          }}
          error={fieldError ?? (touched && ruleKey ? t(ruleKey) : null)}
          data-autofocus
        />
        <div className="modal-actions">
          <Button type="submit" block loading={busy} disabled={Boolean(ruleKey)}>
            {t('updateEmail.submit')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
