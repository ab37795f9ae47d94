// The one-time "ready to work offline" notice after the worker's first install (what vite-plugin-pwa's
// useRegisterSW calls onOfflineReady): the player learns the app now opens with no network.
// It waits for the player's next page: the worker finishes installing a few seconds into the first
// visit, and a card pushed in under the header then would shove the page being read (layout shift
// 0.17 on every first visit, issue 14); a page change moves everything anyway.
import { useAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { Button } from '@/components/button';
import { offlineReadyAtom } from '../state/pwa-atoms';

export function OfflineReady() {
  const { t } = useTranslation('pwa');
  const [ready, setReady] = useAtom(offlineReadyAtom);
  const { key } = useLocation();
  const [readyOn, setReadyOn] = useState<string | null>(null);
  useEffect(() => {
    if (ready && readyOn === null) setReadyOn(key);
  }, [ready, readyOn, key]);
  if (!ready || readyOn === null || readyOn === key) return null;
  return (
    <section className="pwa-card" role="status" aria-live="polite" data-testid="offline-ready">
      <p className="pwa-card__title">{t('offlineReady.title')}</p>
      <p className="pwa-card__text">{t('offlineReady.text')}</p>
      <div className="pwa-card__actions">
        <Button variant="ghost" onClick={() => setReady(false)}>
          {t('offlineReady.ok')}
        </Button>
      </div>
    </section>
  );
}
