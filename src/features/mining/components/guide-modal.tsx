// The mining guide (spec §2, §4): 5 steps with back, next and step dots; opening it starts at step 1
// (the modal machine does that). The last step's button, 'Earn PXT', closes it and starts mining
// when the player is idle and no start waits in the outbox. It reads only translations and Dexie,
// so it works offline.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  AUTO_MINER_DAYS,
  AUTO_MINER_PRICE_GEMS,
  BASE_RATE_PER_HOUR,
  MINING_SESSION_SECONDS_DEFAULT,
  REFERRAL_BOOST_CAP_PERCENT,
  REFERRAL_BOOST_PERCENT,
  TASK_BOOST_PERCENT,
  TEMP_BOOST_HOURS,
} from '@shared/constants';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { closeModal, guideGoTo, guideNext, guidePrev, useModalState } from '@/lib/modal-state';
import { isSignedIn } from '@/lib/session';
import { currentSession, minerStatus } from '../lib/session-view';
import { OUTBOX_PATHS } from '../api/mining-api';
import { start } from '../state/mining-actions';
import { pendingCall, useOutboxRows, useSessions } from '../state/mining-data';
import './mining.css';

export default function GuideModal() {
  const { t, i18n } = useTranslation('mining');
  const { guideStep: step, guideTotal: total } = useModalState();
  const sessions = useSessions();
  const outbox = useOutboxRows();
  const [starting, setStarting] = useState(false);
  const last = step === total;
  const facts = {
    hours: MINING_SESSION_SECONDS_DEFAULT / 3600,
    base: BASE_RATE_PER_HOUR,
    task: TASK_BOOST_PERCENT,
    referral: REFERRAL_BOOST_PERCENT,
    cap: REFERRAL_BOOST_CAP_PERCENT,
    price: AUTO_MINER_PRICE_GEMS,
    days: AUTO_MINER_DAYS,
    durations: new Intl.ListFormat(i18n.language, { type: 'disjunction' }).format(TEMP_BOOST_HOURS.map(String)),
  };

  const earn = async () => {
    const idle = sessions !== undefined && minerStatus(currentSession(sessions), Date.now()) === 'idle';
    // As /miner's Start: a start made offline and waiting in the outbox is not queued again (the
    // second would be refused on reconnect, a session existing by then), nor before the outbox is read.
    const startWaits = outbox === undefined || pendingCall(outbox, OUTBOX_PATHS.start) !== null;
    if (!idle || startWaits || !isSignedIn()) {
      closeModal();
      return;
    }
    setStarting(true);
    try {
      await start();
    } catch (err) {
      // The miner page shows the session state; a refused start (one already running) changes nothing.
      console.warn('Failed to start mining', err);
    } finally {
      setStarting(false);
      closeModal();
    }
  };

  return (
    <Modal title={t('guide.title')} onClose={closeModal} size="md" className="mining-guide">
      <p className="mining-guide__step" aria-live="polite">
        {t('guide.stepOf', { step, total })}
      </p>
      <div className="mining-guide__art" aria-hidden="true" data-step={step}>
        <span />
        <span />
        <span />
      </div>
      <h3 className="mining-guide__title">{t(`guide.steps.${step}.title`)}</h3>
      <p className="mining-guide__text">{t(`guide.steps.${step}.text`, facts)}</p>
      <nav className="mining-guide__dots" aria-label={t('guide.dots')}>
        {Array.from({ length: total }, (_, i) => i + 1).map((n) => (
          <button
            key={n}
            type="button"
            className="mining-guide__dot"
            aria-label={t('guide.goTo', { step: n })}
            aria-current={n === step ? 'step' : undefined}
            onClick={() => guideGoTo(n)}
          />
        ))}
      </nav>
      <div className="mining-guide__nav">
        <Button variant="ghost" onClick={guidePrev} disabled={step === 1}>
          {t('guide.back')}
        </Button>
        {last ? (
          <Button onClick={earn} loading={starting} data-autofocus>
            {t('guide.earn')}
          </Button>
        ) : (
          <Button onClick={guideNext} data-autofocus>
            {t('guide.next')}
          </Button>
        )}
      </div>
    </Modal>
  );
}
