// PWA state shared by the registration code (outside React) and the prompts: set through the one
// Jotai store (lib/store.ts), read with useAtomValue.
import { atom } from 'jotai';

/** The browser's deferred install offer (Chromium's `beforeinstallprompt`). */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform: string }>;
}

/** A new service worker is installed and waits for the player's Reload. */
export const updateReadyAtom = atom(false);
/** The new version runs, but this tab kept a half-filled form instead of reloading: its own prompt. */
export const updateAppliedAtom = atom(false);
/** The worker was installed for the first time: the one-time "ready to work offline" notice. */
export const offlineReadyAtom = atom(false);
/** The install offer to show as an "Install app" button; null when the browser offers none. */
export const installPromptAtom = atom<BeforeInstallPromptEvent | null>(null);
/** navigator.onLine, kept current by the online/offline events. */
export const onlineAtom = atom(typeof navigator === 'undefined' ? true : navigator.onLine !== false);
/** Outbox calls not sent yet (written by the signed-in part of the PWA layer from Dexie). */
export const pendingCallsAtom = atom(0);
