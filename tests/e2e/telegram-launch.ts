// How Telegram opens the Mini App (decisions §14), for the e2e tests: the launch parameters in the
// address's hash (init data signed with the bot token as Telegram signs it, the theme, version and
// platform) and `window.TelegramWebviewProxy`, through which Telegram's SDK talks to a mobile
// client; the stand-in records every event the app posts. Nothing reaches Telegram: the server
// checks the init data locally.
import type { Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { signInitData, testBotToken, type TelegramTestUser } from '../helpers/telegram-signing';
import type { RunningServer } from './fixtures';
import { registerWithInitData } from './helpers';

export const BOT_TOKEN = testBotToken();
/** The server's Telegram settings for these tests (its Bot API calls go to a closed port). */
export const TELEGRAM_SERVER_ENV = {
  TELEGRAM_BOT_TOKEN: BOT_TOKEN,
  TELEGRAM_BOT_USERNAME: 'pxt_e2e_bot',
  TELEGRAM_WEBHOOK_SECRET: 'e2e-webhook-secret-0123456789',
  TELEGRAM_API_BASE: 'http://127.0.0.1:9',
};

/** Telegram's night theme (Android) and its day theme. */
export const DARK = {
  bg_color: '#17212b',
  text_color: '#f5f5f5',
  hint_color: '#708499',
  link_color: '#6ab3f3',
  button_color: '#5288c1',
  button_text_color: '#ffffff',
  secondary_bg_color: '#232e3c',
};
export const LIGHT = {
  bg_color: '#ffffff',
  text_color: '#000000',
  hint_color: '#999999',
  link_color: '#2481cc',
  button_color: '#2481cc',
  button_text_color: '#ffffff',
  secondary_bg_color: '#efeff3',
};

export interface TelegramEvent {
  type: string;
  data: Record<string, unknown> | null;
}

let nextId = 7_100_000_000;
export const telegramUser = (first_name: string): TelegramTestUser => ({
  id: nextId++,
  first_name,
  username: `${first_name.toLowerCase()}_tg`,
  language_code: 'en',
});

/** Opens `path` as Telegram opens the Mini App, for `user` (fresh init data each time: each is accepted once). */
export async function openInTelegram(
  page: Page,
  opts: {
    user: TelegramTestUser;
    theme?: Record<string, string>;
    startParam?: string;
    path?: string;
    /** False: init data as Telegram clients before Bot API 8.0 send it, without `signature`. */
    signed?: boolean;
  },
) {
  await page.addInitScript(() => {
    const w = window as unknown as { __telegramEvents: TelegramEvent[]; TelegramWebviewProxy: unknown };
    w.__telegramEvents = [];
    w.TelegramWebviewProxy = {
      postEvent(type: string, data?: string) {
        w.__telegramEvents.push({ type, data: data ? (JSON.parse(data) as Record<string, unknown>) : null });
      },
    };
  });
  const launch = new URLSearchParams({
    // As a current client sends it: with the third-party signature (not checked by the bot's HMAC check).
    tgWebAppData: signInitData(BOT_TOKEN, {
      user: opts.user,
      startParam: opts.startParam,
      signature: opts.signed === false ? undefined : randomBytes(64).toString('base64url'),
    }),
    tgWebAppVersion: '8.0',
    tgWebAppPlatform: 'android',
    tgWebAppThemeParams: JSON.stringify(opts.theme ?? DARK),
  });
  if (opts.startParam) launch.set('tgWebAppStartParam', opts.startParam);
  // A launch is a new page load, also where only the hash differs from the address shown.
  if (page.url() !== 'about:blank') await page.goto('about:blank');
  await page.goto(`${opts.path ?? '/'}#${launch.toString()}`);
}

export const events = (page: Page, type: string) =>
  page.evaluate(
    (t) => (window as unknown as { __telegramEvents: TelegramEvent[] }).__telegramEvents.filter((e) => e.type === t),
    type,
  );
/** The back button's last state the app told Telegram (undefined: never set up). */
export const backButtonVisible = async (page: Page) =>
  (await events(page, 'web_app_setup_back_button')).at(-1)?.data?.is_visible as boolean | undefined;

/** A Telegram player who chose `username`, made through the API as the Mini App's sign-in makes one. */
export const createTelegramPlayer = (server: RunningServer, user: TelegramTestUser, username: string) =>
  registerWithInitData(server, signInitData(BOT_TOKEN, { user }), username);
