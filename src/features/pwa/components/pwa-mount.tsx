// The one static import of the PWA feature in the shell (root-layout.tsx): it only loads the layer
// (update prompt, install prompt, offline banner, reminders) as its own chunk once the page is idle,
// so the first visit's JavaScript stays small.
import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { OptionalPart } from '@/components/optional-part';
import { watchPageInput } from '../lib/page-input';

const whenIdle = () =>
  new Promise<void>((resolve) => {
    if (typeof window.requestIdleCallback === 'function')
      window.requestIdleCallback(() => resolve(), { timeout: 2000 });
    else setTimeout(resolve, 200);
  });

const PwaLayer = lazy(() => whenIdle().then(() => import('./pwa-layer')));

export function PwaMount() {
  // Not before mount: the prerendered landing (app/prerender.tsx) has no PWA layer to hydrate.
  const [mounted, setMounted] = useState(false);
  const { key } = useLocation();
  useEffect(() => setMounted(true), []);
  useEffect(() => watchPageInput(key), [key]);
  if (!mounted) return null;
  return (
    <OptionalPart>
      <Suspense fallback={null}>
        <PwaLayer />
      </Suspense>
    </OptionalPart>
  );
}
