// The app-wide PWA pieces, stacked in one corner dock: offline banner, update prompt, install offer,
// and — for a signed-in player — the outbox watcher and the claim-reminder switch (their own chunk,
// because they read Dexie, which a visitor's pages never load).
import { useAtomValue } from 'jotai';
import { lazy, Suspense, useEffect, useRef, type RefObject } from 'react';
import { useNavigate } from 'react-router';
import { signedInAtom } from '@/lib/session';
import { onNavigate } from '../lib/worker-messages';
import { InstallPrompt } from './install-prompt';
import { OfflineBanner } from './offline-banner';
import { OfflineReady } from './offline-ready';
import { UpdatePrompt } from './update-prompt';
import './pwa.css';

const PlayerPwa = lazy(() => import('./player-pwa'));

export default function PwaLayer() {
  const signedIn = useAtomValue(signedInAtom);
  const dock = useRef<HTMLDivElement>(null);
  useReserveSpace(dock);
  useRouteFromNotification();
  return (
    <div className="pwa-dock" ref={dock}>
      <OfflineBanner />
      <UpdatePrompt />
      <OfflineReady />
      <InstallPrompt />
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

/** Keeps room under the page for the dock (pwa.css pads #root), so it never hides the page's end. */
function useReserveSpace(dock: RefObject<HTMLDivElement | null>) {
  useEffect(() => {
    const el = dock.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => {
      const height = el.childElementCount > 0 ? el.getBoundingClientRect().height : 0;
      root.style.setProperty('--pwa-dock-space', height > 0 ? `${Math.ceil(height) + 24}px` : '0px');
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--pwa-dock-space');
    };
  }, [dock]);
}
