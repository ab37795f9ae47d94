// Entry: the store, translations and router are wired here; the current user is fetched at start.
// On `/` the build prerendered the landing page into #root (scripts/vite-plugin-prerender.ts): it
// is hydrated once the route's module and the translations it shows are here; elsewhere #root is
// empty and the app renders from scratch.
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { refreshCurrentUser, watchCurrentUser } from '../lib/current-user';
import { i18n, i18nReady } from '../lib/i18n';
import { onSignedOut } from '../lib/session';
import { Providers } from './providers';
import { router } from './router';
import './global.css';

watchCurrentUser();
void refreshCurrentUser();
onSignedOut(() => {
  void router.navigate('/');
});

// The service worker, install offer and update checks load after start (not first-visit JavaScript).
void import('../features/pwa/lib/sw-registration').then((pwa) => pwa.startPwa());

const app = (
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>
);

/** Resolves once the router has loaded the first page's lazy module (it renders nothing before). */
const routerReady = () =>
  new Promise<void>((resolve) => {
    if (router.state.initialized) return resolve();
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });

const container = document.getElementById('root')!;
if (container.firstElementChild) {
  void Promise.all([routerReady(), i18nReady.then(() => i18n.loadNamespaces('landing'))]).then(() => hydrateRoot(container, app));
} else {
  createRoot(container).render(app);
}
