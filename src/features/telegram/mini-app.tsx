// The Mini App (decisions §14), loaded by main.tsx only when the page was opened inside Telegram
// (lib/telegram-host.ts): Telegram's SDK with its launch parameters, Telegram's theme, full height,
// the back button, haptic feedback on a claim, and the sign-in from the init data. Each part is
// set up on its own: an older Telegram client lacking one still gets the others.
import {
  backButton,
  hapticFeedback,
  init,
  miniApp,
  retrieveLaunchParams,
  retrieveRawInitData,
  viewport,
} from '@tma.js/sdk';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { setTelegramHaptic } from '@/lib/telegram-haptic';
import { keepStartReferral } from './lib/start-referral';
import { launchInitData } from '@/lib/telegram-launch';
import { signInWithInitData } from './lib/telegram-sign-in';
import { followTelegramTheme } from './lib/telegram-theme';
import './mini-app.css';

function attempt(part: string, run: () => unknown): void {
  try {
    const result = run();
    if (result instanceof Promise) result.catch((err: unknown) => console.warn(`Telegram ${part}:`, err));
  } catch (err) {
    console.warn(`Telegram ${part}:`, err);
  }
}

let started = false;

/** Runs once, before the app renders (so its first paint has Telegram's colours). */
export function startMiniApp(): void {
  if (started) return;
  started = true;
  try {
    init();
  } catch (err) {
    // No launch parameters, or ones the SDK refuses: Telegram clients before Bot API 8.0 send init
    // data without `signature`, which the server's check does not need. The player is signed in
    // from the data as Telegram gave it; the rest of the app stays as on the web.
    console.warn('Telegram SDK:', err);
    attempt('sign-in', () => signInWithInitData(launchInitData()));
    return;
  }
  attempt('launch parameters', () => keepStartReferral(retrieveLaunchParams().tgWebAppStartParam));
  // The SDK has them now (and sessionStorage keeps them): out of the address, where the referral
  // handler would keep the signed init data as part of the visitor's referral link.
  history.replaceState(history.state, '', location.pathname + location.search);
  attempt('theme', followTelegramTheme);
  attempt('mini app', () => miniApp.mount());
  attempt('back button', () => backButton.mount());
  attempt('viewport', () => {
    viewport.expand();
    // The stable height (not the one changing while Telegram's sheet is dragged) for the page's height.
    return viewport
      .mount()
      .then(() => viewport.bindCssVars((key) => key === 'stableHeight' && '--tg-viewport-stable-height'));
  });
  setTelegramHaptic((kind) =>
    attempt('haptic feedback', () => {
      if (hapticFeedback.notificationOccurred.isAvailable()) hapticFeedback.notificationOccurred(kind);
    }),
  );
  attempt('sign-in', () => signInWithInitData(retrieveRawInitData()));
  attempt('ready', () => miniApp.ready());
}

/** Inside the router: Telegram's back button, shown away from `/`, goes back in the app's history. */
export function MiniAppLayer() {
  const { pathname, key } = useLocation();
  const navigate = useNavigate();
  const atRoot = pathname === '/';
  // The first page of the Mini App (key "default") has no earlier page in the app: back goes to `/`.
  const firstPage = key === 'default';

  useEffect(() => {
    if (!backButton.isMounted()) return;
    if (atRoot) {
      backButton.hide();
      return;
    }
    backButton.show();
    return backButton.onClick(() => void (firstPage ? navigate('/') : navigate(-1)));
  }, [atRoot, firstPage, navigate]);

  return null;
}
