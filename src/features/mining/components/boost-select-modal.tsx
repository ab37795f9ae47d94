// Boost select (spec §2, §4): the 2x temporary boosts of 1, 4, 6 and 12 hours with the count owned
// and a Use button. No running session → the boost is selected for the next start. A running
// session → it is applied (force_apply false); when it would outlast the session the server says so,
// and the Notice opens, then the confirmation with the server's message (decisions §6 Deviation).
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TEMP_BOOST_HOURS, TEMP_BOOST_VALUE } from '@shared/constants';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { closeModal, switchModal } from '@/lib/modal-state';
import { formatTime } from '../lib/format';
import { miningFailure } from '../lib/mining-errors';
import { currentSession, minerStatus, planBoostNow } from '../lib/session-view';
import { useOnline } from '../state/hooks';
import { TempBoostRow } from './temp-boost-row';
import { applyBoost, selectBoost } from '../state/mining-actions';
import {
  queuedBoostUses,
  readQueuedBoostUses,
  refreshBoosts,
  refreshSessions,
  tempBoostStock,
  useBoostRows,
  useOutboxRows,
  useSessions,
  type TempBoostStock,
} from '../state/mining-data';
import { NoticeLine, type Notice } from './notice-line';
import './mining.css';

export default function BoostSelectModal() {
  const { t, i18n } = useTranslation('mining');
  const rows = useBoostRows();
  const sessions = useSessions();
  const outbox = useOutboxRows();
  const online = useOnline();
  const [busy, setBusy] = useState<number | null>(null);
  const [notice, setNotice] = useState<Notice>(null);

  useEffect(() => {
    void Promise.allSettled([refreshBoosts(), refreshSessions()]);
  }, []);

  const session = sessions ? currentSession(sessions) : null;
  const running = minerStatus(session, Date.now()) === 'running';
  // A boost used offline counts as used at once: it is not offered (nor queued) a second time.
  const stock = tempBoostStock(rows ?? [], TEMP_BOOST_HOURS, queuedBoostUses(outbox));

  const use = async (shown: TempBoostStock) => {
    setBusy(shown.hours);
    setNotice(null);
    try {
      // The boost to use is picked from the outbox as it is now, not as last rendered.
      const [row] = tempBoostStock(rows ?? [], [shown.hours], await readQueuedBoostUses());
      const id = !running || !session ? row.freeIds[0] : (row.freeIds[0] ?? row.ids[0]);
      if (id === undefined) {
        setNotice({ kind: 'error', text: t('errors.codes.boost_already_used') });
        return;
      }
      if (!running || !session) {
        const r = await selectBoost(id);
        setNotice({
          kind: 'ok',
          text: r.kind === 'queued' ? t('boostSelect.queued') : t('boostSelect.selectedDone', { hours: row.hours }),
        });
        return;
      }
      if (!online) {
        // Offline the server cannot be asked whether the boost fits: place it as the server would.
        const plan = planBoostNow(session, row.durationSeconds, Date.now());
        if (plan.insideMs <= 0) {
          setNotice({ kind: 'error', text: t('errors.codes.no_time_left') });
          return;
        }
        if (plan.insideMs < row.durationSeconds * 1000) {
          switchModal('noticeBoost', {
            boostId: String(id),
            hours: String(row.hours),
            efficiency: String(plan.efficiencyPercent),
          });
          return;
        }
      }
      const r = await applyBoost(id, false);
      if (r.kind === 'queued') {
        setNotice({ kind: 'ok', text: t('boostSelect.queued') });
      } else if (!r.data.applied) {
        switchModal('noticeBoost', {
          boostId: String(id),
          hours: String(row.hours),
          // Our own text for a code we know (boost-confirm-modal.tsx); the server's words otherwise.
          ...(r.data.code === 'boost_longer_than_session' ? { code: r.data.code } : { message: r.data.message }),
          efficiency: String(r.data.efficiency_percent),
        });
      } else {
        setNotice({
          kind: 'ok',
          text: t('boostSelect.applied', { time: formatTime(r.data.boost?.ends_at ?? session.ends_at, i18n.language) }),
        });
      }
    } catch (err) {
      setNotice({ kind: 'error', text: miningFailure(err, running ? 'applyBoost' : 'selectBoost', t).text });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Modal
      title={t('boostSelect.title', { value: TEMP_BOOST_VALUE })}
      description={running ? t('boostSelect.willApply') : t('boostSelect.willSelect')}
      onClose={closeModal}
      size="md"
    >
      <ul className="mining-boost-list">
        {stock.map((row) => {
          // Offered once the outbox has been read (a use waiting there takes the boost).
          const usable = outbox !== undefined && (running ? row.ids.length > 0 : row.freeIds.length > 0);
          return (
            <TempBoostRow key={row.hours} row={row} testId={`boost-row-${row.hours}`}>
              <Button
                variant="secondary"
                onClick={() => void use(row)}
                loading={busy === row.hours}
                disabled={!usable || (busy !== null && busy !== row.hours)}
                aria-label={t('boostSelect.useLabel', { hours: row.hours })}
              >
                {t('boostSelect.use')}
              </Button>
            </TempBoostRow>
          );
        })}
      </ul>
      <NoticeLine notice={notice} />
      <p className="modal-note">
        <Link to="/mining" onClick={closeModal}>
          {t('boostSelect.getMore')}
        </Link>
      </p>
    </Modal>
  );
}
