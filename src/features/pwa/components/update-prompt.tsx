// "A new version is available — Reload". Shown while a new worker waits; it never reloads by itself,
// only when the player presses Reload (then every open tab reloads, sw-registration.ts). A tab that
// holds a half-filled form does not reload with the others: it says the update is in and lets the
// player reload once the form is sent.
import { useAtom, useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { applyUpdate } from '../lib/sw-registration';
import { updateAppliedAtom, updateReadyAtom } from '../state/pwa-atoms';

export function UpdatePrompt() {
  const { t } = useTranslation('pwa');
  const [ready, setReady] = useAtom(updateReadyAtom);
  const applied = useAtomValue(updateAppliedAtom);
  const [reloading, setReloading] = useState(false);
  if (applied) return <UpdateApplied />;
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

function UpdateApplied() {
  const { t } = useTranslation('pwa');
  const [, setApplied] = useAtom(updateAppliedAtom);
  return (
    <section className="pwa-card pwa-card--update" role="status" aria-live="polite" data-testid="update-applied">
      <p className="pwa-card__title">{t('update.appliedTitle')}</p>
      <p className="pwa-card__text">{t('update.appliedText')}</p>
      <div className="pwa-card__actions">
        <Button onClick={() => window.location.reload()}>{t('update.reload')}</Button>
        <Button variant="ghost" onClick={() => setApplied(false)}>
          {t('update.later')}
        </Button>
      </div>
    </section>
  );
}
