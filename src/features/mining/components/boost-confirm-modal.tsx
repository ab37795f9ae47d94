// The confirmation after the Notice (spec §4): the apply answer's outcome (its `code` in our own
// words, else the server's `message`) and `efficiency_percent`. Decisions §6 Deviation: Confirm re-sends the apply with force_apply true, Cancel
// closes. Offline there is no answer yet, so only the locally planned efficiency is shown.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { backModal, closeModal, useModalState } from '@/lib/modal-state';
import { miningFailure } from '../lib/mining-errors';
import { applyBoost } from '../state/mining-actions';
import './mining.css';

export default function BoostConfirmModal() {
  const { t } = useTranslation('mining');
  const { params, previous } = useModalState();
  const boostId = Number(params.boostId);
  const efficiency = params.efficiency === undefined ? NaN : Number(params.efficiency);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [queued, setQueued] = useState(false);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await applyBoost(boostId, true);
      if (r.kind === 'queued') setQueued(true);
      else closeModal();
    } catch (err) {
      setError(miningFailure(err, 'applyBoost', t).text);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title={t('boostConfirm.title')} onClose={closeModal} onBack={previous ? backModal : undefined}>
      {(params.code || params.message) && (
        <p className="mining-notice" data-testid="boost-message">
          {params.code === 'boost_longer_than_session' ? t('notice.text') : params.message}
        </p>
      )}
      {Number.isFinite(efficiency) && (
        <p className="mining-notice mining-notice--warn" data-testid="boost-efficiency">
          {t('notice.efficiency', { percent: efficiency })}
        </p>
      )}
      {queued ? (
        <>
          <p className="mining-notice mining-notice--ok" role="status">
            {t('boostSelect.queued')}
          </p>
          <div className="modal-actions">
            <Button block onClick={closeModal}>
              {t('notice.close')}
            </Button>
          </div>
        </>
      ) : (
        <div className="modal-actions">
          <Button block onClick={confirm} loading={busy} disabled={!Number.isInteger(boostId) || boostId < 1}>
            {t('notice.confirm')}
          </Button>
          <Button block variant="ghost" onClick={closeModal}>
            {t('notice.cancel')}
          </Button>
        </div>
      )}
      {error && (
        <p className="modal-error" role="alert">
          {error}
        </p>
      )}
    </Modal>
  );
}
