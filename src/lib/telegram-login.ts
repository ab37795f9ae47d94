// Telegram's Login Widget (https://core.telegram.org/widgets/login) in redirect mode: its script
// draws Telegram's button where it sits, and after the player confirms in Telegram the browser
// comes back to /auth/telegram/callback with the signed fields in the query. The script is loaded
// only where a dialog offers Telegram (the CSP allows it only while the server has a bot), never on
// the first visit.
import { TELEGRAM_WIDGET_SCRIPT } from '@shared/content-security-policy';

/** Where Telegram sends the browser back (the app's router has the page; features/auth reads it). */
export const TELEGRAM_CALLBACK_PATH = '/auth/telegram/callback';
/** The widget's version, as Telegram's own snippet names it. */
const WIDGET_VERSION = '22';

/**
 * Puts Telegram's button into `container` (the script inserts an iframe beside itself). Returns a
 * function that takes it out again.
 */
export function mountTelegramLogin(
  container: HTMLElement,
  opts: { botUsername: string; lang: string; onError: () => void },
): () => void {
  const script = document.createElement('script');
  script.async = true;
  script.src = `${TELEGRAM_WIDGET_SCRIPT}?${WIDGET_VERSION}`;
  script.dataset.telegramLogin = opts.botUsername;
  script.dataset.size = 'large';
  script.dataset.authUrl = `${window.location.origin}${TELEGRAM_CALLBACK_PATH}`;
  script.dataset.requestAccess = 'write';
  script.dataset.lang = opts.lang;
  script.onerror = opts.onError;
  container.appendChild(script);
  return () => container.replaceChildren();
}
