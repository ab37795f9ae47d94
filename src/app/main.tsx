// Entry: the store, translations and router are wired here; the current user is fetched at start.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { refreshCurrentUser, watchCurrentUser } from '../lib/current-user';
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

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
