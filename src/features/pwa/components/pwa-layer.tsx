// The app-wide PWA pieces, stacked in one dock in the flow under the header: offline banner, update prompt, install offer,
// and — for a signed-in player — the outbox watcher and the claim-reminder switch (their own chunk,
// because they read Dexie, which a visitor's pages never load).
import { useAtomValue } from 'jotai';
import { lazy, Suspense } from 'react';
import { signedInAtom } from '@/lib/session';
import { InstallPrompt } from './install-prompt';
import { OfflineBanner } from './offline-banner';
import { UpdatePrompt } from './update-prompt';
import './pwa.css';

const PlayerPwa = lazy(() => import('./player-pwa'));

export default function PwaLayer() {
  const signedIn = useAtomValue(signedInAtom);
  return (
    <div className="pwa-dock">
      <OfflineBanner />
      <UpdatePrompt />
      <InstallPrompt />
      {signedIn && (
        <Suspense fallback={null}>
          <PlayerPwa />
        </Suspense>
      )}
    </div>
  );
}
