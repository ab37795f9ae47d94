// Notice boost (spec §4, decisions §6 Deviation): the boost lasts longer than the time left in the
// running session and its unused time expires. Confirm re-sends the apply with force_apply true;
// Cancel closes. Opened by the boost select dialog with the boost id and the efficiency percent.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { closeModal, useModalState } from '@/lib/modal-state';
import { miningFailure } from '../lib/mining-errors';
import { applyBoost } from '../state/mining-actions';
import './mining.css';

export default function NoticeBoostModal() {
  const { t } = useTranslation('mining');
  const { params } = useModalState();
  const boostId = Number(params.boostId);
  const efficiency = Number(params.efficiency);
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
    <Modal title={t('notice.title')} onClose={closeModal} description={t('notice.text')}>
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
