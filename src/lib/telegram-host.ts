// Is this page a Telegram Mini App (decisions §14)? Answered at start without Telegram's SDK, which
// only a Mini App loads (src/features/telegram, from main.tsx): this file is part of every first visit,
// so it stays this small. Telegram passes its launch parameters in the address's hash
// (tgWebAppData, tgWebAppVersion, tgWebAppPlatform…); the app's first navigation drops the hash, so
// they are kept in sessionStorage under the key the SDK reads them back from (@tma.js/bridge:
// `tapps/launchParams`, JSON), where they also survive a reload. Telegram's mobile clients give the
// page `TelegramWebviewProxy`; its web client frames the page from web.telegram.org.
import { atom } from 'jotai';

export const LAUNCH_PARAMS_KEY = 'tapps/launchParams';

/**
 * Whether this page is a Mini App; keeps the launch parameters of the hash under `key`. Self-contained:
 * the start script (lib/start-on-intent.ts) runs a copy before the app, to start it at once there.
 */
export function detectTelegramLaunch(key: string): boolean {
  try {
    const hash = location.hash.slice(1);
    if (hash.includes('tgWebAppVersion=')) sessionStorage.setItem(key, JSON.stringify(hash));
    return (
      sessionStorage.getItem(key) !== null ||
      'TelegramWebviewProxy' in window ||
      (self !== top && (location.ancestorOrigins?.[0] ?? document.referrer).startsWith('https://web.telegram.org'))
    );
  } catch {
    // Storage blocked (not a Telegram WebView), or no page at all (the build's prerender).
    return false;
  }
}

const launched = detectTelegramLaunch(LAUNCH_PARAMS_KEY);
if (launched) document.documentElement.dataset.host = 'telegram';

/** Opened as a Telegram Mini App (fixed for the page's life; `html[data-host=telegram]` tells CSS). */
export const isTelegramLaunch = () => launched;
/** The same, for components (e.g. the PWA layer offers no install inside Telegram). */
export const inTelegramAtom = atom(launched);
