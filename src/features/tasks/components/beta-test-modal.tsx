import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { TextField } from '@/components/text-field';
import { toApiFailure } from '@/lib/api-errors';
import { refreshCurrentUser, useCurrentUser } from '@/lib/current-user';
import { currentLanguage } from '@/lib/i18n';
import { closeModal, openModal } from '@/lib/modal-state';
import { applyForBeta, refreshBetaStatus, refreshCompletedTasks } from '../api/tasks-api';
import './beta-test-modal.css';
import {
  BETA_FIELDS,
  type BetaField,
  type BetaValues,
  betaFieldCodes,
  betaFieldText,
  betaSubmitError,
} from '../state/beta-form';

const INPUT: Record<BetaField, { type: string; autoComplete: string }> = {
  telegram: { type: 'text', autoComplete: 'off' },
  discord: { type: 'text', autoComplete: 'off' },
  email: { type: 'email', autoComplete: 'email' },
  wallet: { type: 'text', autoComplete: 'off' },
};

/** The beta-test application (spec §3, §5, §8): telegram, discord, e-mail, wallet. */
export default function BetaTestModal() {
  const { t } = useTranslation('tasks');
  const user = useCurrentUser();
  const lang = currentLanguage();
  const [values, setValues] = useState<BetaValues>({
    telegram: '',
    discord: '',
    email: user?.email ?? '',
    wallet: user?.wallet_address ?? '',
  });
  const [touched, setTouched] = useState<Partial<Record<BetaField, boolean>>>({});
  const [serverFields, setServerFields] = useState<Partial<Record<BetaField, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const codes = betaFieldCodes(values);
  const valid = Object.keys(codes).length === 0;

  // Every field is required (docs/choices.md): an empty one asks to be filled, not for a format.
  const fieldError = (f: BetaField) =>
    serverFields[f] ??
    (touched[f] && codes[f] ? (values[f].trim() ? betaFieldText(lang, codes[f]) : t('beta.form.empty')) : null);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setTouched({ telegram: true, discord: true, email: true, wallet: true });
    if (!valid) {
      // Send stays pressable: pressing it shows what is missing and goes to the first such field.
      const first = BETA_FIELDS.find((f) => codes[f]);
      e.currentTarget.querySelector<HTMLInputElement>(`input[name="${first}"]`)?.focus();
      return;
    }
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const trimmed = Object.fromEntries(BETA_FIELDS.map((f) => [f, values[f].trim()])) as BetaValues;
      await applyForBeta(trimmed);
      // Applying pays the invite awards already reached, so the balance and the quests move too.
      await Promise.allSettled([refreshBetaStatus(), refreshCompletedTasks(), refreshCurrentUser()]);
      openModal('betaTestSuccess');
    } catch (err) {
      const failure = toApiFailure(err, t('beta.form.failed'));
      const shown = betaSubmitError(lang, failure, t('beta.form.failed'));
      setServerFields(shown.fields);
      setError(shown.message);
      if (failure.code === 'beta_already_applied' || failure.code === 'beta_tasks_incomplete')
        await refreshBetaStatus().catch(() => undefined);
      setBusy(false);
    }
  };

  return (
    <Modal title={t('beta.form.title')} description={t('beta.form.text')} onClose={closeModal} size="md">
      <form onSubmit={submit} noValidate>
        <p className="beta-form__required">{t('beta.form.required')}</p>
        {BETA_FIELDS.map((f, i) => (
          <TextField
            key={f}
            label={t(`beta.form.${f}`)}
            name={f}
            type={INPUT[f].type}
            autoComplete={INPUT[f].autoComplete}
            placeholder={t(`beta.form.placeholder.${f}`)}
            maxLength={f === 'email' ? 254 : 64}
            required
            value={values[f]}
            onChange={(ev) => {
              setValues((v) => ({ ...v, [f]: ev.target.value }));
              setServerFields((s) => ({ ...s, [f]: undefined }));
            }}
            onBlur={() => setTouched((s) => ({ ...s, [f]: true }))}
            error={fieldError(f)}
            data-autofocus={i === 0 ? true : undefined}
          />
        ))}
        {error && (
          <p className="modal-error beta-form__error" role="alert">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <Button type="submit" block loading={busy}>
            {t('beta.form.submit')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
