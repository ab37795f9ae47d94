// Entry: the store, translations and router are wired here; the current user is fetched at start.
// On `/` (index.html) and `/blog` (blog.html) the build prerendered the page into #root
// (scripts/vite-plugin-prerender.ts): it is hydrated once the page's module and the translations it
// shows are here; elsewhere #root is empty and the app renders from scratch. Opened inside Telegram, the Mini App's part (Telegram's SDK)
// is loaded first and started before the app renders; anywhere else it is never requested.
import { StrictMode, startTransition, type ComponentType } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { refreshCurrentUser, watchCurrentUser } from '../lib/current-user';
import { homeScreenStart } from '../lib/home-screen-launch';
import { i18n, i18nReady } from '../lib/i18n';
import { isSignedIn, signedInAtom } from '../lib/session';
import { store } from '../lib/store';
import { isTelegramLaunch } from '../lib/telegram-host';
import { Providers } from './providers';
import { AppRoutes, preloadPage } from './router';
import './global.css';

// Before the router starts, so a launch from the home screen never shows the landing first.
const launch = homeScreenStart(window.location, isSignedIn());
if (launch) window.history.replaceState(window.history.state, '', launch);

watchCurrentUser();
void refreshCurrentUser();
// The outbox replay loads once a player is signed in (now or later): never for a visitor.
const unwatch = store.sub(signedInAtom, startSync);
function startSync() {
  if (!isSignedIn()) return;
  unwatch?.();
  void import('./outbox-sync').then((sync) => sync.startOutboxSync());
}
startSync();

// The service worker, install offer and update checks load after start (not first-visit JavaScript).
void import('../features/pwa/lib/sw-registration').then((pwa) => pwa.startPwa());

/** The pages the build prerenders (#root's data-prerendered) and the translations each one shows. */
const PRERENDERED: Record<string, { path: '/' | '/blog'; namespace: string } | undefined> = {
  '/': { path: '/', namespace: 'landing' },
  '/blog': { path: '/blog', namespace: 'blog' },
};

function render(MiniAppLayer?: ComponentType) {
  const app = (
    <StrictMode>
      <Providers>
        <BrowserRouter>
          <AppRoutes />
          {MiniAppLayer && <MiniAppLayer />}
        </BrowserRouter>
      </Providers>
    </StrictMode>
  );
  const container = document.getElementById('root')!;
  // The prerendered page is hydrated only on its path: a home-screen launch may have moved on to /miner.
  const page = PRERENDERED[container.getAttribute('data-prerendered') ?? ''];
  const path = window.location.pathname.replace(/(.)\/$/, '$1');
  if (container.firstElementChild && path !== page?.path) container.replaceChildren();
  if (container.firstElementChild && page) {
    void Promise.all([preloadPage(page.path), i18nReady.then(() => i18n.loadNamespaces(page.namespace))]).then(() =>
      hydrateRoot(container, app),
    );
  } else {
    // As a transition the first render runs in slices that yield to the page, not as one long task
    // (a signed-in /miner's tree was 40–90 ms on the 2-core machine: Lighthouse's TBT, issue 25).
    const root = createRoot(container);
    startTransition(() => root.render(app));
  }
}

if (isTelegramLaunch()) {
  void import('../features/telegram/mini-app').then(
    (telegram) => {
      telegram.startMiniApp();
      render(telegram.MiniAppLayer);
    },
    (err: unknown) => {
      console.warn(err);
      render();
    },
  );
} else {
  render();
}
