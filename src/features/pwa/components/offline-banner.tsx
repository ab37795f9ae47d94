// Offline, or calls waiting in the outbox: a banner with what happens next. The page keeps showing
// the last known data from Dexie; queued calls are sent when the network is back.
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
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
      const { replayOutbox } = await import('@/lib/outbox');
      await replayOutbox();
    } finally {
      setRetrying(false);
    }
  };

  return (
    <section
      className="pwa-card pwa-card--offline"
      role="status"
      aria-live="polite"
      data-reason={banner.reason}
      data-testid="offline-banner"
    >
      <span className="pwa-card__dot" aria-hidden="true" />
      <p className="pwa-offline__text">
        <strong>{banner.reason === 'offline' ? t('offline.offline') : t('offline.unreachable')}</strong>{' '}
        <span>{t('offline.lastKnown')}</span>
        {banner.pending > 0 && (
          <>
            {' '}
            <span className="pwa-offline__pending" data-testid="pending-calls">
              {t('offline.pending', { count: banner.pending })}
            </span>
          </>
        )}
      </p>
      {banner.reason === 'unreachable' && (
        <button
          type="button"
          className="pwa-offline__retry"
          disabled={retrying}
          aria-busy={retrying || undefined}
          onClick={() => void retry()}
        >
          {t('offline.retry')}
        </button>
      )}
    </section>
  );
}
