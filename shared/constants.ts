// Business constants of the product spec (§9) and decisions.md. Client and server both read these;
// change a number here and both sides follow.

export const API_BASE = '/api/v1';
/**
 * How long a call waits for its answer. A phone that says it is online but carries nothing (a
 * tunnel, one bar, a portal's login page) leaves fetch waiting for minutes: the claim's button
 * would spin all that time. Past this a call counts as unanswered (status 0), like one made offline:
 * a state-changing call goes to the outbox with its key, which the server recognises if the call
 * did reach it. Long enough for a slow 2G answer and a busy password-hash queue.
 */
export const API_TIMEOUT_MS = 20_000;
export const LANGUAGES = ['en', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'en';

export const MINING_SESSION_SECONDS_DEFAULT = 8 * 60 * 60;
export const BASE_RATE_PER_HOUR = 1; // PXT per hour before boosts
export const TASK_BOOST_PERCENT = 5;
export const REFERRAL_BOOST_PERCENT = 10;
export const REFERRAL_BOOST_CAP_PERCENT = 100;
export const TEMP_BOOST_VALUE = 2;
export const TEMP_BOOST_HOURS = [1, 4, 6, 12] as const;
export const SHOP_PRICES_GEMS: Record<(typeof TEMP_BOOST_HOURS)[number], number> = { 1: 5, 4: 15, 6: 20, 12: 35 };
export const WELCOME_BOOST_HOURS = 1;

export const AUTO_MINER_PRICE_GEMS = 150;
export const AUTO_MINER_DAYS = 30;

export const TOP_UP_ITEM = { id: 'gems_50', gems: 50, price_usd: 4.99 } as const;
/** How many items one order may buy (decisions §8: `quantity` 1–10). */
export const TOP_UP_QUANTITY_MAX = 10;
export const PAYMENT_METHODS = ['tether', 'sbp', 'card'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const USERNAME_MIN = 5;
export const USERNAME_MAX = 15;
export const PASSWORD_MIN = 8;

export const GUIDE_STEPS = 5;
export const WALLET_SHORT_MAX = 10;
export const WALLET_HEAD = 7;
export const WALLET_TAIL = 3;
export const NARROW_BREAKPOINT_PX = 1250;
export const WALLET_AUTOSTART_MS = 500;
export const WALLET_RETRY_MS = 1000;
export const STATE_REFRESH_AFTER_CONFIRM_MS = 2000;
export const LANGUAGE_RELOAD_GUARD_MS = 2000;

export const ACCOUNT_QUEST_COUNT = 3;
/** Every quest of shared/tasks.ts (the landing shows the number without loading the list; a unit test holds them equal). */
export const QUEST_COUNT = 15;
export const SOCIAL_CATEGORY_MIN = 6;
export const CATEGORY_REWARD_COINS = 100;
export const BETA_REQUIRED_TASKS = 9;

// Token (PXT) is stored in integer millionths and sent as a number with at most 6 decimals.
export const TOKEN_SCALE = 1_000_000;

export const ACCESS_TOKEN_SECONDS = 15 * 60;
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 60 * 60;
export const WALLET_SIGNATURE_MAX_AGE_MS = 5 * 60 * 1000;
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * The installed app's start address (manifest `start_url`, sw/pwa-options.ts): its parameter tells
 * the landing that the app was opened from the home screen, which sends a signed-in player on to /miner.
 */
export const HOME_SCREEN_LAUNCH = { param: 'source', value: 'pwa' } as const;
export const HOME_SCREEN_START_URL = `/?${HOME_SCREEN_LAUNCH.param}=${HOME_SCREEN_LAUNCH.value}`;

/** Local storage keys the client uses; the e2e tests read them too. */
export const STORAGE_KEYS = {
  referral: 'referralFullUrl',
  language: 'i18nextLng',
} as const;
