// "Install app" where the browser offers installation (Chromium's beforeinstallprompt), or the short
// iOS how-to (Share → Add to Home Screen), from the player's next page (lib/from-next-page.ts).
// Dismissing hides it for good (localStorage).
import { useAtom } from 'jotai';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { useFromNextPage } from '../lib/from-next-page';
import { deviceFacts, installHint, readDismissed, rememberDismissed } from '../lib/install-hint';
import { useCardTurn } from '../state/card-turn';
import { installPromptAtom } from '../state/pwa-atoms';

export function InstallPrompt() {
  const { t } = useTranslation('pwa');
  const [offer, setOffer] = useAtom(installPromptAtom);
  const [dismissed, setDismissed] = useState(readDismissed);
  const device = useMemo(deviceFacts, []);
  const hint = installHint({ ...device, hasPrompt: offer !== null, dismissed });
  const shown = useFromNextPage(hint !== 'none', 'install');
  const turn = useCardTurn('install', shown);
  if (!turn) return null;

  const dismiss = () => {
    rememberDismissed();
    setDismissed(true);
  };
  const install = async () => {
    if (!offer) return;
    await offer.prompt();
    const choice = await offer.userChoice.catch(() => null);
    // The offer can be used once; an accepted one is followed by `appinstalled`.
    setOffer(null);
    if (choice?.outcome === 'dismissed') dismiss();
  };

  return (
    <section className="pwa-card" aria-labelledby="pwa-install-title">
      <p className="pwa-card__title" id="pwa-install-title">
        {hint === 'ios' ? t('install.iosTitle') : t('install.title')}
      </p>
      <p className="pwa-card__text">{hint === 'ios' ? t('install.iosSteps') : t('install.text')}</p>
      <div className="pwa-card__actions">
        {hint === 'prompt' && <Button onClick={() => void install()}>{t('install.button')}</Button>}
        <Button variant="ghost" onClick={dismiss}>
          {t('install.dismiss')}
        </Button>
      </div>
    </section>
  );
}
