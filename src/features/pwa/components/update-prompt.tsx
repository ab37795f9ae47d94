// "A new version is available — Reload". Shown while a new worker waits; it never reloads by itself
// (a half-typed form would be lost), only when the player presses Reload.
import { useAtom } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { applyUpdate } from '../lib/sw-registration';
import { updateReadyAtom } from '../state/pwa-atoms';

export function UpdatePrompt() {
  const { t } = useTranslation('pwa');
  const [ready, setReady] = useAtom(updateReadyAtom);
  const [reloading, setReloading] = useState(false);
  if (!ready) return null;
  return (
    <section className="pwa-card pwa-card--update" role="status" aria-live="polite">
      <p className="pwa-card__title">{t('update.text')}</p>
      <div className="pwa-card__actions">
        <Button
          loading={reloading}
          onClick={() => {
            setReloading(true);
            applyUpdate();
          }}
        >
          {t('update.reload')}
        </Button>
        <Button variant="ghost" onClick={() => setReady(false)}>
          {t('update.later')}
        </Button>
      </div>
    </section>
  );
}
