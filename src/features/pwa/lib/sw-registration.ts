// Registers the service worker (sw/sw.ts → /sw.js) and wires the page to it. Loaded with import()
// from main.tsx right after start, so none of this is part of the first visit's JavaScript. On a
// visitor's prerendered page the app starts only at the first tap (lib/start-on-intent.ts): the
// page's start script registered the same worker at idle meanwhile, noted its first install and
// kept the browser's install offer; both are taken over here.
// - Updates: a new worker waits; `updateReadyAtom` shows the Reload prompt; `applyUpdate` sends
//   SKIP_WAITING. The new worker claims every open tab and installed window, and each one reloads
//   on its `controllerchange` — except a tab with a half-filled form, which keeps it and shows its
//   own prompt (`updateAppliedAtom`). New versions are looked for every 30 minutes and when the
//   tab comes back.
// - Offline ready: the first install of the worker shows a one-time notice (`offlineReadyAtom`).
// - Install: the browser's `beforeinstallprompt` is kept for the "Install app" button.
// - Background Sync: the worker's OUTBOX_REPLAY message runs `replayOutbox` here (the page holds
//   the tokens) and answers how many calls still wait.
// - Push: the subscription is re-posted at start, and ended in this browser after sign-out.
import { Workbox } from 'workbox-window';
import { OUTBOX_REPLAY, OUTBOX_SYNC_TAG, type OutboxReplayReply } from '@shared/sw-messages';
import { refreshCurrentUser } from '@/lib/current-user';
import { isSignedIn, onSignedOut, signedInAtom } from '@/lib/session';
import { startGateOf } from '@/lib/early-taps';
import { OFFLINE_READY_SHOWN, SERVICE_WORKER_SCOPE, SERVICE_WORKER_URL } from '@/lib/start-on-intent';
import { store } from '@/lib/store';
import { hasUnsavedInput, watchUnsavedInput } from './unsaved-input';
import {
  installPromptAtom,
  offlineReadyAtom,
  onlineAtom,
  updateAppliedAtom,
  updateReadyAtom,
  type BeforeInstallPromptEvent,
} from '../state/pwa-atoms';

const UPDATE_EVERY_MS = 30 * 60 * 1000;
/** Coming back to the tab checks for a new version at most this often. */
const VISIBLE_CHECK_MIN_MS = 60 * 1000;
/** Set once the "ready to work offline" notice was shown: it is about the first install only. */
const OFFLINE_READY_KEY = OFFLINE_READY_SHOWN;

let wb: Workbox | null = null;
let started = false;

export function startPwa(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  watchOnline();
  watchInstallPrompt();
  takeOverFromGate();
  if (!('serviceWorker' in navigator) || !import.meta.env.PROD) return;

  navigator.serviceWorker.addEventListener('message', (event) => {
    if ((event.data as { type?: string } | null)?.type === OUTBOX_REPLAY) void answerReplay(event.ports[0]);
  });

  watchUnsavedInput();
  watchControllerChange();
  wb = new Workbox(SERVICE_WORKER_URL, { scope: SERVICE_WORKER_SCOPE });
  wb.addEventListener('waiting', () => store.set(updateReadyAtom, true));
  wb.addEventListener('activated', (event) => {
    // isUpdate: a worker controlled this page already; isExternal: another tab's update.
    if (!event.isUpdate && !event.isExternal) showOfflineReadyOnce();
  });
  void wb
    .register()
    .then((reg) => {
      if (reg) watchForUpdates(reg);
    })
    .catch((err: unknown) => console.warn('Service worker registration failed', err));

  watchPush();
}

function watchOnline(): void {
  const sync = () => store.set(onlineAtom, navigator.onLine !== false);
  window.addEventListener('online', sync);
  window.addEventListener('offline', sync);
  sync();
}

function watchInstallPrompt(): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    // Keep the offer for our own button instead of the browser's mini-infobar.
    event.preventDefault();
    store.set(installPromptAtom, event as BeforeInstallPromptEvent);
  });
  window.addEventListener('appinstalled', () => store.set(installPromptAtom, null));
}

function watchForUpdates(reg: ServiceWorkerRegistration): void {
  let lastCheck = Date.now();
  const check = () => {
    if (navigator.onLine === false) return;
    lastCheck = Date.now();
    reg.update().catch(() => undefined); // offline or server down: the next check tries again
  };
  setInterval(check, UPDATE_EVERY_MS);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && Date.now() - lastCheck > VISIBLE_CHECK_MIN_MS) check();
  });
}

/**
 * What the start script kept for the app when it ran first (lib/start-on-intent.ts): the browser's
 * install offer (prevented the same way), and the offline notice of the worker's first install when
 * it registered the worker itself — also one that ends later, while the app runs.
 */
function takeOverFromGate(): void {
  const gate = startGateOf();
  if (!gate) return;
  if (gate.installPrompt) store.set(installPromptAtom, gate.installPrompt as BeforeInstallPromptEvent);
  const offlineReady = () => gate.offlineReady && store.set(offlineReadyAtom, true);
  offlineReady();
  gate.onOfflineReady = offlineReady;
}

function showOfflineReadyOnce(): void {
  try {
    if (localStorage.getItem(OFFLINE_READY_KEY)) return;
    localStorage.setItem(OFFLINE_READY_KEY, '1');
  } catch {
    /* storage blocked: show it this time anyway */
  }
  store.set(offlineReadyAtom, true);
}

/**
 * A new worker took over (the player accepted the update here or in another tab/window): reload
 * under it, so no tab keeps running old code against the new worker's caches. The first install
 * claiming a page that had no worker is not an update and reloads nothing.
 */
function watchControllerChange(): void {
  let controlled = navigator.serviceWorker.controller !== null;
  let reloading = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (!controlled) {
      controlled = true;
      return;
    }
    store.set(updateReadyAtom, false);
    if (reloading) return;
    if (hasUnsavedInput()) {
      store.set(updateAppliedAtom, true);
      return;
    }
    reloading = true;
    window.location.reload();
  });
}

/** The player chose Reload: activate the waiting worker; every tab reloads on its controllerchange. */
export function applyUpdate(): void {
  wb?.messageSkipWaiting();
}

/** Looks for a new version now (tests and the periodic check use the same path). */
export async function checkForUpdate(): Promise<void> {
  await wb?.update();
}

async function answerReplay(port: MessagePort | undefined): Promise<void> {
  let reply: OutboxReplayReply = { pending: 0 };
  if (isSignedIn()) {
    try {
      const { replayOutbox } = await import('@/lib/outbox');
      const summary = await replayOutbox();
      reply = { pending: summary.pending };
      // A replayed claim changes the balance (same as OutboxSync in app/).
      if (summary.sent > 0 || summary.failed > 0) void refreshCurrentUser();
    } catch (err) {
      console.warn('Outbox replay from Background Sync failed', err);
      reply = { pending: 1 };
    }
  }
  port?.postMessage(reply);
}

interface SyncRegistration extends ServiceWorkerRegistration {
  sync?: { register(tag: string): Promise<void> };
}

/** Asks the browser to wake the worker when the network is back (where Background Sync exists). */
export async function requestOutboxSync(): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  const reg = (await navigator.serviceWorker.getRegistration('/')) as SyncRegistration | undefined;
  await reg?.sync?.register(OUTBOX_SYNC_TAG).catch(() => undefined);
}

/** Loaded only for a player: a visitor's first visit does not fetch the API client (issue 14). */
const loadPush = () => import('./push-subscription');

function watchPush(): void {
  const resync = () => {
    if (!isSignedIn()) return;
    loadPush()
      .then((push) => push.resyncPush())
      .catch((err: unknown) => console.warn('Could not renew the push subscription', err));
  };
  store.sub(signedInAtom, resync);
  resync();
  onSignedOut(() => {
    void loadPush()
      .then((push) => push.dropBrowserSubscription())
      .catch(() => undefined);
  });
}
