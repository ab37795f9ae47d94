// Offline, or calls waiting in the outbox: a banner with what happens next. The page keeps showing
// the last known data from Dexie; queued calls are sent when the network is back.
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button';
import { offlineBanner } from '../state/offline-banner';
import { onlineAtom, pendingCallsAtom } from '../state/pwa-atoms';

export function OfflineBanner() {
  const { t } = useTranslation('pwa');
  const online = useAtomValue(onlineAtom);
  const pending = useAtomValue(pendingCallsAtom);
  const [retrying, setRetrying] = useState(false);
  const banner = offlineBanner({ online, pending });
  if (!banner.visible) return null;

  const retry = async () => {
    setRetrying(true);
    try {
      const { replayOutbox } = await import('../../../lib/outbox');
      await replayOutbox();
    } finally {
      setRetrying(false);
    }
  };

  return (
    <section className={`pwa-card pwa-card--offline`} role="status" aria-live="polite" data-reason={banner.reason}>
      <p className="pwa-card__title">
        <span className="pwa-card__dot" aria-hidden="true" />
        {banner.reason === 'offline' ? t('offline.offline') : t('offline.unreachable')}
      </p>
      <p className="pwa-card__text">
        {t('offline.lastKnown')}
        {banner.pending > 0 && (
          <>
            {' '}
            <strong data-testid="pending-calls">{t('offline.pending', { count: banner.pending })}</strong>
          </>
        )}
      </p>
      {banner.reason === 'unreachable' && (
        <div className="pwa-card__actions">
          <Button variant="ghost" loading={retrying} onClick={() => void retry()}>
            {t('offline.retry')}
          </Button>
        </div>
      )}
    </section>
  );
}
