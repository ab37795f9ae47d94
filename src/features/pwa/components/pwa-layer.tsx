// The app-wide PWA pieces, stacked in one dock in the flow under the header: offline banner, update prompt, install offer,
// and — for a signed-in player — the outbox watcher and the claim-reminder switch (their own chunk,
// because they read Dexie, which a visitor's pages never load). Inside Telegram the app is a Mini App:
// nothing to install (decisions §14).
import { useAtomValue } from 'jotai';
import { lazy, Suspense, useEffect } from 'react';
import { useNavigate } from 'react-router';
import { signedInAtom } from '@/lib/session';
import { inTelegramAtom } from '@/lib/telegram-host';
import { onNavigate } from '../lib/worker-messages';
import { InCardSlot } from './in-card-slot';
import { InstallPrompt } from './install-prompt';
import { OfflineBanner } from './offline-banner';
import { OfflineReady } from './offline-ready';
import { UpdatePrompt } from './update-prompt';
import './pwa.css';

const PlayerPwa = lazy(() => import('./player-pwa'));

export default function PwaLayer() {
  const signedIn = useAtomValue(signedInAtom);
  const inTelegram = useAtomValue(inTelegramAtom);
  useRouteFromNotification();
  return (
    <div className="pwa-dock">
      <OfflineBanner />
      <UpdatePrompt />
      <InCardSlot>
        <OfflineReady />
      </InCardSlot>
      {!inTelegram && (
        <InCardSlot>
          <InstallPrompt />
        </InCardSlot>
      )}
      {signedIn && (
        <Suspense fallback={null}>
          <PlayerPwa />
        </Suspense>
      )}
    </div>
  );
}

/** A notification click picked this window: route to its path inside the app (no reload). */
function useRouteFromNotification() {
  const navigate = useNavigate();
  useEffect(
    () =>
      onNavigate(({ path }) => {
        if (typeof path !== 'string' || !path.startsWith('/') || path.startsWith('//')) return false;
        void navigate(path);
        return true;
      }),
    [navigate],
  );
}
