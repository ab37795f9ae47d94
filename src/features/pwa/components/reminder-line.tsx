// The page's own claim reminder: while the player looks at their miner, a push does not pop up a
// system notification (sw/push.ts asks this page first); this line says it instead, until that
// session is claimed (then the reward moment speaks) or the player closes it or leaves the miner.
import { useLiveQuery } from '@/lib/live-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { db } from '@/lib/db';
import { onReminder, takesReminder } from '../lib/worker-messages';

export function ReminderLine() {
  const { t } = useTranslation('pwa');
  const { pathname } = useLocation();
  const [shown, setShown] = useState(false);
  const [sessionId, setSessionId] = useState<number | null>(null);
  const claimed = useLiveQuery(
    async () => sessionId !== null && (await db.sessions.get(sessionId))?.claimed === true,
    [sessionId],
  );

  useEffect(
    () =>
      onReminder(async ({ payload }) => {
        const id = payload?.session_id;
        const row = typeof id === 'number' ? await db.sessions.get(id) : undefined;
        const take = takesReminder({
          path: window.location.pathname,
          visible: document.visibilityState === 'visible',
          focused: document.hasFocus(),
          ownSession: row?.kind === 'session',
        });
        if (take) {
          setSessionId(id as number);
          setShown(true);
        }
        return take;
      }),
    [],
  );
  // The line belongs to the miner page.
  useEffect(() => {
    if ((pathname.replace(/\/+$/, '') || '/') !== '/miner') setShown(false);
  }, [pathname]);

  if (!shown || claimed) return null;
  return (
    <section className="pwa-card pwa-card--update" role="status" aria-live="polite" data-testid="reminder-line">
      <div className="pwa-card__row">
        <p className="pwa-card__title">{t('push.inPage')}</p>
        <button
          type="button"
          className="pwa-card__close"
          onClick={() => setShown(false)}
          aria-label={t('push.inPageClose')}
        >
          <span aria-hidden="true">×</span>
        </button>
      </div>
    </section>
  );
}
