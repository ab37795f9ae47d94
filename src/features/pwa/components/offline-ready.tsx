// The one-time "ready to work offline" notice after the worker's first install (what vite-plugin-pwa's
// useRegisterSW calls onOfflineReady): the player learns the app now opens with no network.
// It waits for the player's next page (lib/from-next-page.ts).
import { useAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { useFromNextPage } from '../lib/from-next-page';
import { useCardTurn } from '../state/card-turn';
import { offlineReadyAtom } from '../state/pwa-atoms';

export function OfflineReady() {
  const { t } = useTranslation('pwa');
  const [ready, setReady] = useAtom(offlineReadyAtom);
  const shown = useCardTurn('offlineReady', useFromNextPage(ready, 'offlineReady'));
  if (!shown) return null;
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
